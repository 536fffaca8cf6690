// `import <file>`: loads an export into an EMPTY database of either kind, keeping every
// id, timestamp and version. One transaction: a file that fails anywhere (bad line,
// unknown table, broken reference) leaves the target as empty as it was.
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { createDb, migrateToLatest } from '../db/database.js';
import { advanceIdentitySequences, appliedMigrations, insertTableRows, tableHasRows } from '../db/storage/table-copy.js';
import { CliError, oneFileArgument, type Command } from './command.js';
import { EXPORT_FORMAT, EXPORT_VERSION, fromText, type ExportHeader, type ExportRow } from './export-format.js';
import { TABLES, type TableSpec } from './tables.js';

const ROWS_PER_INSERT = 200;

function parseLine(text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`line ${lineNumber} is not JSON`);
  }
}

function checkHeader(value: unknown, targetMigrations: string[]): void {
  const header = value as Partial<ExportHeader> | null;
  if (!header || header.format !== EXPORT_FORMAT) throw new CliError('not an export of this service (line 1 has no licensing-export header)');
  if (header.version !== EXPORT_VERSION) throw new CliError(`export format version ${header.version} is not supported (expected ${EXPORT_VERSION})`);
  const source = header.migrations ?? [];
  if (source.join('\n') !== targetMigrations.join('\n')) {
    throw new CliError(
      `the export was made at schema ${source.at(-1) ?? '(none)'}, this version is at ${targetMigrations.at(-1)}: ` +
        'import with the same version of the service that exported it',
    );
  }
}

async function assertEmpty(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    if (await tableHasRows(db, table)) {
      throw new CliError(`the target database is not empty (table ${table.name} has rows): import needs an empty database`);
    }
  }
}

/**
 * On PostgreSQL no foreign key ties an attempt to its license (the service keeps them
 * together itself, docs/decisions.md): a file's attempts must all have their license.
 */
async function assertAttemptsHaveLicenses(db: Kysely<any>): Promise<void> {
  const orphan = await db
    .selectFrom('validation_attempts as a')
    .select('a.license_id')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('licenses as l').select('l.id').whereRef('l.id', '=', 'a.license_id'))))
    .limit(1)
    .executeTakeFirst();
  if (orphan) throw new CliError(`an attempt in validation_attempts refers to license ${JSON.stringify(orphan.license_id)}, which the file does not hold`);
}

/** Loads `file` into the database at `databaseUrl`; returns how many rows each table received. */
export async function importDatabase(databaseUrl: string, file: string): Promise<Record<string, number>> {
  if (!existsSync(file)) throw new CliError(`No export file at ${file}`);
  const { db: typedDb, dialect } = createDb(databaseUrl);
  const db = typedDb as Kysely<any>;
  try {
    await migrateToLatest(typedDb);
    await assertEmpty(db);
    const targetMigrations = await appliedMigrations(db);
    const byName = new Map(TABLES.map((t, i) => [t.name, { spec: t, order: i }]));
    const counts: Record<string, number> = {};
    await db.transaction().execute(async (trx) => {
      let lineNumber = 0;
      let current: { spec: TableSpec; order: number } | null = null;
      let pending: Record<string, unknown>[] = [];
      const flush = async () => {
        if (current && pending.length > 0) await insertTableRows(trx, dialect, current.spec, pending);
        pending = [];
      };
      const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
      for await (const text of lines) {
        lineNumber += 1;
        if (text.trim() === '') continue;
        const value = parseLine(text, lineNumber);
        if (lineNumber === 1) {
          checkHeader(value, targetMigrations);
          continue;
        }
        const { table, row } = (value ?? {}) as Partial<ExportRow>;
        const target = typeof table === 'string' ? byName.get(table) : undefined;
        if (!target) throw new CliError(`line ${lineNumber}: unknown table ${JSON.stringify(table)}`);
        if (!row || typeof row !== 'object' || Array.isArray(row)) throw new CliError(`line ${lineNumber}: "row" must be an object`);
        if (target !== current) {
          // Parents come first (TABLES order), so references resolve as rows arrive.
          if (current && target.order < current.order) throw new CliError(`line ${lineNumber}: table ${table} out of order`);
          await flush();
          current = target;
        }
        try {
          pending.push(fromText(target.spec, row));
        } catch (err) {
          throw new CliError(`line ${lineNumber}: ${(err as Error).message}`);
        }
        counts[target.spec.name] = (counts[target.spec.name] ?? 0) + 1;
        if (pending.length >= (target.spec.rowsPerPage ?? ROWS_PER_INSERT)) await flush();
      }
      if (lineNumber === 0) throw new CliError(`${file} is empty`);
      await flush();
      await assertAttemptsHaveLicenses(trx);
      await advanceIdentitySequences(trx, dialect, TABLES);
    });
    return counts;
  } finally {
    await db.destroy();
  }
}

export const importCommand: Command = {
  usage: 'import <file>',
  summary: 'load an export into an empty database (SQLite or PostgreSQL), keeping ids',
  async run(args, config) {
    const file = oneFileArgument(args, this.usage);
    const counts = await importDatabase(config.databaseUrl, file);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`imported ${total} rows into ${Object.keys(counts).length} tables from ${file}`);
  },
};
