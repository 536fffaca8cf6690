// The SQLite file behind DATABASE_URL (what is done with it: src/db/storage/sqlite-file.ts).
import type { Config } from '../config.js';
import { CliError } from './command.js';

/** The file path of a `sqlite:<path>` URL; PostgreSQL is answered with `postgresAdvice`. */
export function sqlitePath(config: Config, postgresAdvice: string): string {
  if (!config.databaseUrl.startsWith('sqlite:')) throw new CliError(postgresAdvice);
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') throw new CliError('DATABASE_URL is an in-memory database: nothing to back up or restore');
  return path;
}
