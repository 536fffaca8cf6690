// Row locks taken by a read inside a transaction, the same call on both engines:
//   query.$call(lockRows(trx, 'noKeyUpdate'))
// PostgreSQL: `FOR UPDATE` / `FOR NO KEY UPDATE` / `FOR KEY SHARE` (`OF` a table,
// `SKIP LOCKED` rows another transaction holds). SQLite has no row locks and needs none:
// its transactions begin IMMEDIATE, so a writer holds the database's one write lock from
// its first statement and the read already excludes every other writer.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { dialectOf } from './dialect.js';

export type RowLock = 'update' | 'noKeyUpdate' | 'keyShare';

export interface RowLockOptions {
  /** Lock the rows of this table (alias) only, in a join. */
  of?: string;
  /** Leave out rows another transaction has locked instead of waiting for them. */
  skipLocked?: boolean;
}

type AnySelect = SelectQueryBuilder<any, any, any>;

export function lockRows(db: Kysely<any>, lock: RowLock, options: RowLockOptions = {}): <Q extends AnySelect>(query: Q) => Q {
  if (dialectOf(db) === 'sqlite') return (query) => query;
  return <Q extends AnySelect>(query: Q): Q => {
    const { of, skipLocked } = options;
    let locked: AnySelect = lock === 'update' ? query.forUpdate(of) : lock === 'noKeyUpdate' ? query.forNoKeyUpdate(of) : query.forKeyShare(of);
    if (skipLocked) locked = locked.skipLocked();
    return locked as Q;
  };
}
