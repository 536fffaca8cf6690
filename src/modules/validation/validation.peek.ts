// Whether a license would validate from this machine, decided by the same rule
// (decideValidation) from one read, binding, recording and starting nothing: what an update
// check (POST /releases/latest) answers as `valid`. A new IP or HWID that has room counts as
// valid (it would be bound by a validation); under a slot timeout every binding may be idle.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { clock } from '../../lib/clock.js';
import { decideValidation } from './validation.decision.js';
import { validationFacts, type LicenseLimits } from './validation.facts.js';
import { revealReasons } from '../license-settings/license-settings.js';
import type { ValidationReason } from './validation.decision.js';

export interface Peeked {
  valid: boolean;
  reason: ValidationReason;
  revealReasons: boolean;
}

type PeekRow = LicenseLimits & { ip_bound: number; hwid_bound: number; ips_used: number; hwids_used: number };

/** null: an unknown license. */
export async function peekValidation(
  db: Db,
  req: { licenseId: string; productId: string; hwid: string; ip: string; blocked: boolean },
): Promise<Peeked | null> {
  const { rows } = await sql<PeekRow>`
    SELECT l.product_id, l.expires_at, l.max_ips, l.max_hwids, l.slot_timeout_minutes, l.revoked_at, l.expiry_basis,
      l.valid_for_days, l.grace_days, l.expiry_started_at, l.features, l.reveal_reasons,
      p.features AS product_features, p.reveal_reasons AS product_reveal_reasons,
      (SELECT count(*) FROM license_ips WHERE license_id = l.id AND ip = ${req.ip}) AS ip_bound,
      (SELECT count(*) FROM license_hwids WHERE license_id = l.id AND hwid = ${req.hwid}) AS hwid_bound,
      (SELECT count(*) FROM license_ips WHERE license_id = l.id) AS ips_used,
      (SELECT count(*) FROM license_hwids WHERE license_id = l.id) AS hwids_used
    FROM licenses l JOIN products p ON p.id = l.product_id WHERE l.id = ${req.licenseId}`.execute(db);
  const license = rows[0];
  if (!license) return null;
  const idle = (used: number) => (license.slot_timeout_minutes === null ? 0 : Number(used));
  const facts = validationFacts(
    { ...req, blocked: req.blocked },
    clock.now(),
    license,
    { bound: Number(license.ip_bound) > 0, used: Number(license.ips_used), idle: idle(license.ips_used) },
    { bound: Number(license.hwid_bound) > 0, used: Number(license.hwids_used), idle: idle(license.hwids_used) },
  );
  const decision = decideValidation(facts);
  return { valid: decision.valid, reason: decision.reason, revealReasons: revealReasons(license.reveal_reasons, license.product_reveal_reasons) };
}
