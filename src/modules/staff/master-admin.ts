// Start-up bootstrap of the Master Admin account (DECISIONS.md, Authentication).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import { randomToken } from '../../lib/secrets.js';
import { findStaffByUsername, findStaffByUsernameKey, masterAdminExists } from './staff.repository.js';
import { createMasterAdmin } from './staff.service.js';

/** The account generated on a first start, so the start banner can show its password once. */
export interface GeneratedAdmin {
  username: string;
  password: string;
}

export async function ensureMasterAdmin(
  db: Db,
  configured: Config['masterAdmin'],
  log: FastifyBaseLogger,
): Promise<GeneratedAdmin | null> {
  try {
    if (configured) {
      if (!(await findStaffByUsername(db, configured.username))) {
        const lookalike = await findStaffByUsernameKey(db, configured.username);
        if (lookalike) {
          // Usernames are unique after case folding and by look (DECISIONS.md): the configured one is taken.
          log.error(
            { username: configured.username, existing: lookalike.username },
            'MASTER_ADMIN_USERNAME is taken by another account (usernames are compared without case and by look-alike characters); no Master Admin created',
          );
          return null;
        }
        await createMasterAdmin(db, configured);
        log.info({ username: configured.username }, 'created the configured Master Admin account');
      }
      return null;
    }
    if (await masterAdminExists(db)) return null;
    const password = randomToken(18);
    await createMasterAdmin(db, { username: 'admin', password, email: null });
    // The password is shown once, on purpose, in the start banner (src/banner.ts): it is
    // the only way in on a fresh install. Log lines travel further, so they never carry it.
    log.warn('created Master Admin "admin" with a generated password (shown once in the start banner; set MASTER_ADMIN_PASSWORD to choose it)');
    return { username: 'admin', password };
  } catch (err) {
    // Another instance starting at the same moment created it first.
    if (!isUniqueViolation(err)) throw err;
    return null;
  }
}
