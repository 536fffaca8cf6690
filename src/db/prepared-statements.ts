// Named server-side prepared statements for PostgreSQL's hot statements. Kysely sends every
// query as unnamed, so PostgreSQL parses and plans it on every call; a statement run through
// `executePrepared` is parsed and planned once per pooled connection (pg names it and sends
// only Bind/Execute afterwards). Only fixed SQL texts belong here (arrays as parameters,
// never a list that grows with its input), so each connection holds a handful of them.
import type { CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';

const names = new Map<string, string>();

/** A pg client that runs the texts given to `executePrepared` as named statements. */
export class PreparingClient extends pg.Client {
  override query(...args: unknown[]): any {
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 ? names.get(text) : undefined;
    if (name) return super.query({ name, text: text as string, values: values as unknown[] });
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

/** Runs `query` as a named prepared statement on PostgreSQL (as any query elsewhere). */
export function executePrepared<R>(db: Db, query: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled: CompiledQuery<R> = query.compile(db);
  if (!names.has(compiled.sql)) names.set(compiled.sql, `licensing_${names.size + 1}`);
  return db.executeQuery(compiled);
}
