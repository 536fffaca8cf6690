// `doctor`: checks the database for what the service now refuses but an older database
// may hold. Today: usernames that clash after NFKC and case folding, or that contain
// invisible characters (DECISIONS.md, "Privilege boundaries"). Such accounts keep
// working; an operator decides what to rename or delete. Exit 1 when something is found.
import { listStaff } from '../modules/staff/staff.repository.js';
import { usernameKey, usernameProblem } from '../modules/staff/usernames.js';
import { CliError, UsageError, withMigratedDb, type Command } from './command.js';

/** The username quoted, with characters that would not show escaped as \\uXXXX. */
const shown = (username: string) =>
  JSON.stringify(username).replace(/[^\x21-\x7e\p{L}\p{N}\p{P}\p{S}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/** Problems found in the accounts, one line each. */
export function usernameFindings(accounts: readonly { id: string; username: string }[]): string[] {
  const findings: string[] = [];
  const byKey = new Map<string, { id: string; username: string }[]>();
  for (const account of accounts) {
    const key = usernameKey(account.username);
    byKey.set(key, [...(byKey.get(key) ?? []), account]);
    const problem = usernameProblem(account.username);
    if (problem) findings.push(`username ${shown(account.username)} (id ${account.id}): ${problem.replace(/^username /, '')}`);
  }
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    const names = group.map((a) => `${shown(a.username)} (id ${a.id})`).join(', ');
    findings.push(`usernames that are the same after NFKC and case folding: ${names}`);
  }
  return findings;
}

export const doctorCommand: Command = {
  usage: 'doctor',
  summary: 'report data the service would refuse today (clashing or invisible-character usernames)',
  async run(args, config) {
    if (args.length !== 0) throw new UsageError(this.usage);
    const findings = await withMigratedDb(config, async (db) => usernameFindings(await listStaff(db)));
    if (findings.length === 0) {
      console.log('doctor: no problems found');
      return;
    }
    for (const line of findings) console.log(line);
    throw new CliError(`doctor: ${findings.length} problem(s) found; the accounts keep working, rename or delete them as you see fit`);
  },
};
