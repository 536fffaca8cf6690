// `export <file>`: every record of every table (TABLES) as JSON Lines, read from one
// consistent snapshot while the service keeps running, on SQLite or PostgreSQL.
import { closeSync, existsSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { createDb } from '../db/database.js';
import { inSnapshot } from '../db/storage/snapshots.js';
import { appliedMigrations, readTablePage } from '../db/storage/table-copy.js';
import { CliError, oneFileArgument, type Command } from './command.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './export-format.js';
import { TABLES } from './tables.js';
import { toText } from './export-format.js';
import { clock } from '../lib/clock.js';

const PAGE = 2000;

/** Writes the export to `file`; returns how many rows each table had. */
export async function exportDatabase(databaseUrl: string, file: string): Promise<Record<string, number>> {
  if (existsSync(file)) throw new CliError(`${file} already exists: choose a new file name`);
  const { db, dialect } = createDb(databaseUrl);
  // Written under a temporary name: a file named like the target is always complete.
  const partial = `${file}.partial`;
  // Owner-only: the export holds password hashes and the generated secrets.
  let fd: number | null = openSync(partial, 'w', 0o600);
  const counts: Record<string, number> = {};
  const write = (text: string) => writeSync(fd!, text);
  try {
    await inSnapshot(db as Kysely<any>, dialect, async (snapshot) => {
      const header: ExportHeader = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAtEpochMillis: clock.now(),
        dialect,
        migrations: await appliedMigrations(snapshot),
      };
      write(`${JSON.stringify(header)}\n`);
      for (const table of TABLES) {
        let count = 0;
        const page = table.rowsPerPage ?? PAGE;
        for (let offset = 0; ; offset += page) {
          const rows = await readTablePage(snapshot, table, offset, page);
          if (rows.length > 0) write(rows.map((row) => `${JSON.stringify({ table: table.name, row: toText(table, row) })}\n`).join(''));
          count += rows.length;
          if (rows.length < page) break;
        }
        counts[table.name] = count;
      }
    });
    closeSync(fd);
    fd = null;
    renameSync(partial, file);
    return counts;
  } catch (err) {
    if (fd !== null) closeSync(fd);
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await db.destroy();
  }
}

export const exportCommand: Command = {
  usage: 'export <file>',
  summary: 'write every record as JSON Lines (SQLite or PostgreSQL, service may run)',
  async run(args, config) {
    const file = oneFileArgument(args, this.usage);
    const counts = await exportDatabase(config.databaseUrl, file);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`exported ${total} rows from ${Object.keys(counts).length} tables to ${file}`);
  },
};
