// For race tests on PostgreSQL: the race is set up once the other session waits for the
// lock it races for, as pg_stat_activity shows; a fixed sleep only hopes so.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { until } from './until.js';

/** Waits until `sessions` sessions of this database wait for a lock (`what` names them); asks through `db`, not a session in the race. */
export async function untilWaitingOnLock(db: Db, what: string, sessions = 1): Promise<void> {
  await until(
    what,
    async () =>
      (
        await sql<{ query: string }>`SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)
      ).rows.map((row) => row.query),
    (waiting) => waiting.length >= sessions,
    { everyMs: 10 },
  );
}
