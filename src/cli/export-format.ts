// The export file: JSON Lines. The first line describes the export; every other line is
// one row: {"table": name, "row": {column: value}}. Values are JSON numbers, strings or
// null, the same on SQLite and PostgreSQL (booleans are 0/1, times epoch milliseconds);
// byte columns (a table's `binary`) are base64 text.
import type { TableSpec } from './tables.js';
export const EXPORT_FORMAT = 'licensing-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAtEpochMillis: number;
  /** The database it came from. */
  dialect: 'sqlite' | 'postgres';
  /** Applied migrations, in order: the importing service must have the same ones. */
  migrations: string[];
}

export interface ExportRow {
  table: string;
  row: Record<string, unknown>;
}

/** The row as the file holds it: its byte columns as base64 text. */
export function toText(table: TableSpec, row: Record<string, unknown>): Record<string, unknown> {
  if (!table.binary) return row;
  const copy = { ...row };
  for (const column of table.binary) if (Buffer.isBuffer(copy[column]) || copy[column] instanceof Uint8Array) copy[column] = Buffer.from(copy[column] as Uint8Array).toString('base64');
  return copy;
}

/** The row as the database takes it: its byte columns back from base64 (a value that is not text is refused). */
export function fromText(table: TableSpec, row: Record<string, unknown>): Record<string, unknown> {
  if (!table.binary) return row;
  const copy = { ...row };
  for (const column of table.binary) {
    const value = copy[column];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') throw new Error(`${table.name}.${column} must be base64 text`);
    copy[column] = Buffer.from(value, 'base64');
  }
  return copy;
}
