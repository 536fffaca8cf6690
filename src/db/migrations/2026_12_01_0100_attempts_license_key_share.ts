// PostgreSQL: validation_attempts.license_id loses its foreign key. The key was checked per
// inserted attempt (an SPI `SELECT … FOR KEY SHARE` on the license per row, a fifth of a
// bound validation's database time); the statements that insert attempts now take that
// same key-share lock once per distinct license and skip licenses that are gone, and a
// license delete removes its attempts itself after locking the license row (docs/decisions.md,
// "PostgreSQL validations at half of bare"). SQLite keeps the key: it is cheap there and
// its one writer leaves no race to guard against.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../storage/dialect.js';

/** The foreign keys from validation_attempts to licenses (one, named by PostgreSQL). */
async function foreignKeys(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT conname AS name FROM pg_constraint
    WHERE conrelid = 'validation_attempts'::regclass AND confrelid = 'licenses'::regclass AND contype = 'f'`.execute(db);
  return rows.map((r) => r.name);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') return;
  for (const name of await foreignKeys(db)) await sql`ALTER TABLE validation_attempts DROP CONSTRAINT ${sql.id(name)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') return;
  // Only code kept attempts and licenses together meanwhile: drop any attempt whose license is gone.
  await sql`DELETE FROM validation_attempts a WHERE NOT EXISTS (SELECT 1 FROM licenses l WHERE l.id = a.license_id)`.execute(db);
  await sql`ALTER TABLE validation_attempts ADD CONSTRAINT validation_attempts_license_id_fkey
    FOREIGN KEY (license_id) REFERENCES licenses (id) ON DELETE CASCADE`.execute(db);
}
