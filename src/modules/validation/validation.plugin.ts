// The one decision path of "may this license run here?", started with the app: the
// blocklist (from memory), the version the client named (from memory, version-support.ts),
// the engine of this database (validation.service.ts), then the sharing detector. Both
// POST /licenses/validate and POST /releases/download call check(), so a download is
// decided exactly as a validation: same checks, rate limit, bindings, recorded attempt.
import fp from 'fastify-plugin';
import { createValidator } from './validation.service.js';
import type { ValidationResult } from './validation.types.js';
import { VERSION_CHANGES, VersionSupport } from './version-support.js';
import { peekValidation, type Peeked } from './validation.peek.js';

/** A validation as a route hands it over: the body's fields and the caller's address. */
export interface LicenseCheck {
  licenseId: string;
  productId: string;
  hwid: string;
  ip: string;
  version?: string;
}

export interface CheckedLicense extends ValidationResult {
  /** The named version is deprecated (a valid answer's receipt says so). */
  deprecated: boolean;
}

export interface ValidationGate {
  check(request: LicenseCheck): Promise<CheckedLicense>;
  /** Whether it would validate (the blocklist and the rule), recording and binding nothing; null: unknown license. */
  peek(request: Omit<LicenseCheck, 'version'>): Promise<Peeked | null>;
  /** The versions in memory (reloaded by the releases module after its changes). */
  versions: VersionSupport;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Decides and records validations: `check()` is the one path every public license check takes. */
    validation: ValidationGate;
  }
}

export const validationPlugin = fp(
  async (app) => {
    // The engine for this database (src/db/storage/ hands SQLite's raw handle to it).
    const validator = createValidator(app.storage, app.config.validationHistoryMax, app.webhookSubscriptions);
    const versions = new VersionSupport(app.db, app.log);
    await versions.start();
    // A release or product change committed here is in force before its answer; another instance's within VERSION_POLL_MS.
    app.changeFeed.on(VERSION_CHANGES, () => versions.reload());

    const check = async (request: LicenseCheck): Promise<CheckedLicense> => {
      const { licenseId, productId, hwid, ip, version } = request;
      // The blocklist first (from memory): a block is recorded as the attempt's reason BLOCKED.
      const blocked = app.blocklist.check({ ip, hwid, licenseId, productId });
      const standing = versions.standing(productId, version);
      const result = await validator.validate({ licenseId, productId, hwid, ip, blocked, version, versionRefused: standing === 'refused' });
      if (result.outcome) await app.sharing.observe({ licenseId, ip, hwid, licenseProductId: result.outcome.licenseProductId });
      return { ...result, deprecated: standing === 'deprecated' && result.valid };
    };

    const peek = (request: Omit<LicenseCheck, 'version'>) =>
      peekValidation(app.db, { ...request, blocked: app.blocklist.check({ ip: request.ip, hwid: request.hwid, licenseId: request.licenseId, productId: request.productId }) });

    app.decorate('validation', { check, peek, versions });
    app.addHook('onClose', async () => {
      await versions.stop();
      await validator.close();
    });
  },
  { name: 'validation', dependencies: ['storage', 'events', 'blocklist', 'sharing'] },
);
