// Queuing an event while a subscribed endpoint is being deleted (PostgreSQL, READ COMMITTED):
// the INSERT … SELECT found the endpoint (its delete not yet committed), then its foreign-key
// check waited for the delete and failed once it committed, so the change that queued the
// event answered 500. The subscribers are now read with a key-share lock: the statement waits
// for the delete and leaves the deleted endpoint out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrateToLatest, type Db } from '../../db/database.js';
import { untilWaitingOnLock } from '../../../test/helpers/lock-waits.js';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../../../test/helpers/test-app.js';
import { ALL_EVENTS } from './event-types.js';
import { enqueue, enqueueManyPostgres } from './outbox.repository.js';
import type { OutboundEvent } from './events.js';

const event = (id: string): OutboundEvent => ({ id, type: 'license.create', body: '{}', createdAt: Date.now() });

describe.skipIf(!TEST_POSTGRES_URL)('an event queued while its endpoint is deleted (postgres)', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = createDb(database.url).db;
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  async function subscribedEndpoint(id: string): Promise<void> {
    await db
      .insertInto('webhook_endpoints')
      .values({ id, url: 'https://example.com/hook', format: 'standard', enabled: 1, secret: 'whsec_test', created_at: Date.now(), updated_at: Date.now() })
      .execute();
    await db.insertInto('webhook_subscriptions').values({ endpoint_id: id, event_type: ALL_EVENTS }).execute();
  }

  /** Runs `queue` while another transaction has deleted endpoint `id` and not yet committed; commits it meanwhile. */
  async function queueDuringDelete(id: string, queue: () => Promise<void>): Promise<void> {
    let deleted!: () => void;
    const isDeleted = new Promise<void>((resolve) => (deleted = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const deleting = db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      deleted();
      await committing;
    });
    await isDeleted;
    const queued = queue();
    await untilWaitingOnLock(db, "the queuing statement waiting on the endpoint's row");
    commit();
    await deleting;
    await queued;
  }

  for (const [name, queue] of [
    ['one event (enqueue)', (id: string) => enqueue(db, event(`evt-one-${id}`))],
    ['a validation batch (enqueueManyPostgres)', (id: string) => enqueueManyPostgres(db, [event(`evt-a-${id}`), event(`evt-b-${id}`)])],
  ] as const) {
    it(`${name}: succeeds and queues nothing for the deleted endpoint`, async () => {
      const id = `ep-${name.length}-${Date.now()}`;
      const kept = `${id}-kept`;
      await subscribedEndpoint(id);
      await subscribedEndpoint(kept);
      await queueDuringDelete(id, () => queue(id));
      const rows = await db.selectFrom('webhook_outbox').select('endpoint_id').where('endpoint_id', 'in', [id, kept]).execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.endpoint_id === kept)).toBe(true);
    });
  }
});
