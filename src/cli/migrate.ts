// `migrate`: apply pending database migrations and exit.
import { migrateToLatest, type Db } from '../db/database.js';

export async function migrateCommand(db: Db): Promise<void> {
  await migrateToLatest(db);
  console.log('migrations applied');
}
