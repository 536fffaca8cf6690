// Start-up bootstrap of the Master Admin account (DECISIONS.md, Authentication).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { randomToken } from '../../lib/secrets.js';
import { findStaffByUsername, masterAdminExists } from './staff.repository.js';
import { createMasterAdmin } from './staff.service.js';

export async function ensureMasterAdmin(db: Db, configured: Config['masterAdmin'], log: FastifyBaseLogger): Promise<void> {
  try {
    if (configured) {
      if (!(await findStaffByUsername(db, configured.username))) {
        await createMasterAdmin(db, configured);
        log.info({ username: configured.username }, 'created the configured Master Admin account');
      }
      return;
    }
    if (await masterAdminExists(db)) return;
    const password = randomToken(18);
    await createMasterAdmin(db, { username: 'admin', password, email: null });
    // Shown once, on purpose: it is the only way in on a fresh install.
    log.warn(`created Master Admin "admin" with password ${password} (shown only this once; set MASTER_ADMIN_PASSWORD to choose it)`);
  } catch (err) {
    // Another instance starting at the same moment created it first.
    if (!isUniqueViolation(err)) throw err;
  }
}
