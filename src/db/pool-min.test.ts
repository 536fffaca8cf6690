// The PostgreSQL pool keeps PG_POOL_MIN connections open while idle: a request after a
// quiet spell needs no name lookup or new connection (what a container network's hiccup
// delays; docs/deploy.md, "Containers").
import { describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/until.js';
import { createTestDatabase, DIALECTS } from '../../test/helpers/test-app.js';
import { createDb, PG_POOL_MIN } from './database.js';

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL pool while idle', () => {
  it(`closes idle connections down to ${PG_POOL_MIN}, not to none`, async () => {
    const database = await createTestDatabase('postgres');
    const { pool } = createDb(database.url);
    try {
      // Four connections at once, all released together: their idle timers (10 s) fire together.
      const clients = await Promise.all([1, 2, 3, 4].map(() => pool!.connect()));
      for (const client of clients) client.release();
      expect(pool!.totalCount).toBe(4);
      const open = await until('idle connections closed', async () => pool!.totalCount, (count) => count < 4, { timeoutMs: 20_000 });
      expect(open).toBe(PG_POOL_MIN);
    } finally {
      await pool!.end(); // Kysely's destroy() ends only a pool it has used
      await database.drop();
    }
  }, 30_000);
});
