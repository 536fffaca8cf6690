// Whole tables read and written as they are, for the export and import commands
// (src/cli/): any table of the schema, by name, on either engine. PostgreSQL generates
// identity columns and refuses explicit values unless told; SQLite's rowid takes them.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** A table to copy: its name, the columns that order its rows, and its generated column if any. */
export interface CopiedTable {
  name: string;
  orderBy: string[];
  identity?: string;
}

/** The migrations applied to the database, by name. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((r) => String(r.name));
}

/** One page of the table's rows, in its order. */
export function readTablePage(db: Kysely<any>, table: CopiedTable, offset: number, limit: number): Promise<Record<string, unknown>[]> {
  let query = db.selectFrom(table.name).selectAll();
  for (const column of table.orderBy) query = query.orderBy(column);
  return query.limit(limit).offset(offset).execute();
}

export async function tableHasRows(db: Kysely<any>, table: CopiedTable): Promise<boolean> {
  const row = await db.selectFrom(table.name).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Inserts the rows (all with the same columns) as they are, generated columns included. */
export async function insertTableRows(trx: Kysely<any>, dialect: Dialect, table: CopiedTable, rows: Record<string, unknown>[]): Promise<void> {
  const columns = Object.keys(rows[0]!);
  const overriding = dialect === 'postgres' && table.identity ? sql` OVERRIDING SYSTEM VALUE` : sql``;
  const values = rows.map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`);
  await sql`INSERT INTO ${sql.table(table.name)} (${sql.join(columns.map((c) => sql.ref(c)))})${overriding} VALUES ${sql.join(values)}`.execute(trx);
}

/** PostgreSQL identity sequences continue after the copied ids (SQLite's rowid does so by itself). */
export async function advanceIdentitySequences(trx: Kysely<any>, dialect: Dialect, tables: CopiedTable[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of tables) {
    if (!table.identity) continue;
    await sql`SELECT setval(pg_get_serial_sequence(${table.name}, ${table.identity}), coalesce(max(${sql.ref(table.identity)}), 0) + 1, false) FROM ${sql.table(table.name)}`.execute(trx);
  }
}
