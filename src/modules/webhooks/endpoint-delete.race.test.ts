// Deleting an endpoint while its deliveries are being recorded (PostgreSQL): the delete locks
// the endpoint and then cascades to its queued events, a delivery's record holds its event
// and then updates the endpoint; without a common lock first the two deadlocked and the
// DELETE answered 500 (seen in CI, two instances, a receiver refusing connections).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL, type TestApp } from '../../../test/helpers/test-app.js';
import { startTwoInstances } from '../../../test/helpers/two-instances.js';
import { until } from '../../../test/helpers/until.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: Array.from({ length: 20 }, () => '1').join(',') };
const EVENTS_PER_ENDPOINT = 400;
const ROUNDS = 6;

describe.skipIf(!TEST_POSTGRES_URL)('deleting an endpoint while its deliveries are recorded (postgres)', () => {
  let a: TestApp;
  let b: TestApp;
  startTwoInstances('postgres', ENV, (started) => ({ a, b } = started));

  it(`answers 204 every time, ${ROUNDS} endpoints each deleted with ${EVENTS_PER_ENDPOINT} events being attempted`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Port 9 refuses at once: both instances' workers record failed attempts as fast as they can.
      const endpoint = await a.admin('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['licenses.expired'] } });
      expect(endpoint.status, endpoint.text).toBe(201);
      const id = endpoint.json.id as string;
      const now = Date.now();
      await a.app.db
        .insertInto('webhook_outbox')
        .values(
          Array.from({ length: EVENTS_PER_ENDPOINT }, (_, i) => ({
            id: `${randomBytes(8).toString('hex')}:${id}`, endpoint_id: id, event_id: `evt-${round}-${i}`, type: 'licenses.expired',
            body: '{}', created_at: now, status: 'pending', attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null,
          })),
        )
        .execute();
      // Delete mid-stream: once the workers (polling every 500 ms) are recording attempts.
      const attempted = async () =>
        Number((await a.app.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('endpoint_id', '=', id).executeTakeFirstOrThrow()).n);
      await until('5 attempts recorded', attempted, (n) => n >= 5, { timeoutMs: 5000 });
      const deleted = await (round % 2 === 0 ? a : b).admin('DELETE', `/webhook-endpoints/${id}`);
      expect(deleted.status, deleted.text).toBe(204);
      const left = await a.app.db.selectFrom('webhook_outbox').select('id').where('endpoint_id', '=', id).execute();
      expect(left).toEqual([]);
    }
  });
});
