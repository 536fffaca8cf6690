// `doctor`: checks the database for what the service now refuses but an older database
// may hold. Today: usernames that clash after NFKC and case folding, that look alike
// (the same UTS #39 skeleton), or that use characters the service now refuses (DECISIONS.md,
// "Privilege boundaries" and "Safe by default"). Such accounts keep
// working; an operator decides what to rename or delete. Exit 1 when something is found.
import { listStaff } from '../modules/staff/staff.repository.js';
import { usernameKey, usernameProblem, usernameSkeleton } from '../modules/staff/usernames.js';
import { CliError, UsageError, withMigratedDb, type Command } from './command.js';

/** The username quoted, with characters that would not show escaped as \\uXXXX. */
const shown = (username: string) =>
  JSON.stringify(username).replace(/[^\x21-\x7e\p{L}\p{N}\p{P}\p{S}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

type Account = { id: string; username: string };

/** Groups of two or more accounts whose usernames map to the same value. */
function clashes(accounts: readonly Account[], by: (username: string) => string): Account[][] {
  const groups = new Map<string, Account[]>();
  for (const account of accounts) {
    const value = by(account.username);
    groups.set(value, [...(groups.get(value) ?? []), account]);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

const listed = (group: Account[]) => group.map((a) => `${shown(a.username)} (id ${a.id})`).join(', ');

/** Problems found in the accounts, one line each. */
export function usernameFindings(accounts: readonly Account[]): string[] {
  const findings: string[] = [];
  for (const account of accounts) {
    const problem = usernameProblem(account.username);
    if (problem) findings.push(`username ${shown(account.username)} (id ${account.id}): ${problem.replace(/^username /, '')}`);
  }
  for (const group of clashes(accounts, usernameKey)) findings.push(`usernames that are the same after NFKC and case folding: ${listed(group)}`);
  for (const group of clashes(accounts, usernameSkeleton)) findings.push(`usernames that look alike (the same UTS #39 skeleton): ${listed(group)}`);
  return findings;
}

export const doctorCommand: Command = {
  usage: 'doctor',
  summary: 'report data the service would refuse today (clashing, look-alike or refused-character usernames)',
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
