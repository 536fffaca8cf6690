// The export file: JSON Lines. The first line describes the export; every other line is
// one row: {"table": name, "row": {column: value}}. Values are JSON numbers, strings or
// null, the same on SQLite and PostgreSQL (booleans are 0/1, times epoch milliseconds).
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
