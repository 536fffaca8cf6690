// What every operator command is: a usage line and a function of its arguments.
import type { Config } from '../config.js';
import { createDb, migrateToLatest, type Db } from '../db/database.js';

export interface Command {
  /** e.g. `backup <file>` */
  usage: string;
  summary: string;
  run(args: string[], config: Config): Promise<void>;
}

/** A failure the operator can fix (wrong argument, service still running…): printed without a stack. */
export class CliError extends Error {}

/** Arguments that do not fit the command's usage line: exit code 2, as for an unknown command. */
export class UsageError extends CliError {
  constructor(usage: string) {
    super(`usage: npm run cli -- ${usage}`);
  }
}

export function oneFileArgument(args: string[], usage: string): string {
  if (args.length !== 1 || !args[0]) throw new UsageError(usage);
  return args[0];
}

/** Runs `fn` on the configured database with every migration applied, then closes it. */
export async function withMigratedDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const { db } = createDb(config.databaseUrl);
  try {
    await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
