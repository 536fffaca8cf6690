// What staff see and do about shared keys: a license's sharing state (its alert, the distinct
// values in the window, the values seen most) and clearing the suspected mark.
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { windowStart } from './sharing.detector.js';
import * as repo from './sharing.repository.js';
import { parseSharingAlert, sharingAlert } from '../license-settings/license-settings.js';
import type { LicenseSharing } from './sharing.schemas.js';
import { clock } from '../../lib/clock.js';

export async function licenseSharing(db: Db, licenseId: string, now = clock.now()): Promise<LicenseSharing> {
  const row = await repo.alertsOfLicense(db, licenseId);
  if (!row) throw notFound('License not found');
  const own = parseSharingAlert(row.license_alert);
  const alert = sharingAlert(own, parseSharingAlert(row.product_alert));
  const suspectedAt = row.sharing_suspected_at;
  if (alert === null) {
    return { alert: null, alertSource: null, suspectedAtEpochMillis: suspectedAt, distinctIps: null, distinctHwids: null, topValues: { ips: [], hwids: [] } };
  }
  const since = windowStart(alert, now);
  const counts = await repo.countSightings(db, licenseId, since);
  return {
    alert,
    alertSource: own ? 'license' : 'product',
    suspectedAtEpochMillis: suspectedAt,
    distinctIps: counts.ips,
    distinctHwids: counts.hwids,
    topValues: { ips: await repo.topValues(db, licenseId, 'ip', since), hwids: await repo.topValues(db, licenseId, 'hwid', since) },
  };
}

/** Clears the mark and starts a new window (the sightings before it are forgotten): the detector is armed again. */
export async function clearSharing(trx: Db, actor: string, licenseId: string): Promise<void> {
  const cleared = await repo.clearSuspected(trx, licenseId);
  if (!cleared) {
    if (!(await repo.alertsOfLicense(trx, licenseId))) throw notFound('License not found');
    throw conflict('License is not suspected of sharing');
  }
  await repo.forgetSightings(trx, licenseId);
  await recordAudit(trx, actor, 'licenses.sharing.clear', { licenseId });
}
