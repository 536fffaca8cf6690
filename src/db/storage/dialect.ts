// Which engine a Kysely instance talks to, read from its adapter: the one place that asks.
// For code that has a database handle but not the Storage object (row locks inside a
// change's transaction, migrations, which take only `Kysely<any>`).
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

export const dialectOf = (db: Kysely<any>): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
