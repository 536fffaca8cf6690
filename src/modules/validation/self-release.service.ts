// Self-service release (DECISIONS.md "Bindings that heal"): the license key alone frees the
// named IP/HWID, at most `selfReleaseLimit` times in any 30 days. The license row is
// locked as a binding validation locks it (PostgreSQL; SQLite's transaction holds the
// writer lock), so a release and the validations racing it apply one after the other.
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/storage/row-locks.js';
import type { Storage } from '../../db/storage/storage.js';
import { forbidden, HttpError, notFound } from '../../http/errors.js';
import { reportSlotRelease } from '../../lib/observe.js';
import { recordAudit } from '../audit/audit.service.js';
import type { ReleaseBody, ReleaseResult } from '../licenses/licenses.schemas.js';
import { SELF_RELEASE_WINDOW_MS } from '../license-settings/license-settings.js';
import * as validationRepo from './validation.repository.js';
import type { IdleBinding, SlotKind } from './validation.types.js';
import { clock } from '../../lib/clock.js';

export const RELEASE_NOT_FOUND = 'License not found';
export const RELEASE_NOT_ENABLED = 'Self-service release is not enabled for this license';

const readLicense = (trx: Db, id: string) =>
  trx.selectFrom('licenses').select(['product_id', 'self_release_limit']).where('id', '=', id).$call(lockRows(trx, 'noKeyUpdate')).executeTakeFirst();

/** The releases counted in the window ending now: how many, and when the oldest was. */
async function countedReleases(trx: Db, licenseId: string, now: number): Promise<{ count: number; oldest: number | null }> {
  const row = await trx
    .selectFrom('self_releases')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number | null>('released_at').as('oldest')])
    .where('license_id', '=', licenseId)
    .where('released_at', '>', now - SELF_RELEASE_WINDOW_MS)
    .executeTakeFirstOrThrow();
  return { count: row.count, oldest: row.oldest };
}

function limitReached(limit: number, oldest: number, now: number): HttpError {
  const seconds = Math.max(1, Math.ceil((oldest + SELF_RELEASE_WINDOW_MS - now) / 1000));
  return new HttpError(429, `Self-service release limit reached: ${limit} per 30 days`, { 'retry-after': String(seconds) });
}

export async function selfRelease(storage: Storage, body: ReleaseBody, now = clock.now()): Promise<ReleaseResult> {
  const { licenseId } = body;
  const { result, freed } = await storage.transaction(async (trx) => {
    const license = await readLicense(trx, licenseId);
    if (!license || license.product_id !== body.productId) throw notFound(RELEASE_NOT_FOUND);
    const limit = license.self_release_limit;
    if (limit === null) throw forbidden(RELEASE_NOT_ENABLED);
    const counted = await countedReleases(trx, licenseId, now);
    const unbind = (kind: SlotKind): Promise<IdleBinding[]> => {
      const value = body[kind];
      return value === undefined ? Promise.resolve([]) : validationRepo.unbind(trx, kind, licenseId, [value]);
    };
    const ips = await unbind('ip');
    const hwids = await unbind('hwid');
    const freed = ips.length + hwids.length;
    // A call that frees nothing counts nothing; one past the limit undoes its unbinding (the transaction rolls back).
    if (freed > 0 && counted.count >= limit) throw limitReached(limit, counted.oldest!, now);
    if (freed > 0) {
      await trx.insertInto('self_releases').values({ license_id: licenseId, released_at: now }).execute();
      for (const [kind, released] of [['ip', ips], ['hwid', hwids]] as const) {
        for (const binding of released) {
          await recordAudit(trx, 'self-service', 'licenses.slot.release', {
            licenseId,
            kind,
            value: binding.value,
            reason: 'self',
            lastSeenAtEpochMillis: binding.last_seen_at,
          });
        }
      }
    }
    const used = counted.count + (freed > 0 ? 1 : 0);
    const result: ReleaseResult = {
      releasedIps: ips.map((b) => b.value),
      releasedHwids: hwids.map((b) => b.value),
      selfReleasesLeft: Math.max(0, limit - used),
    };
    return { result, freed };
  });
  reportSlotRelease('self', freed);
  return result;
}
