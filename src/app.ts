// buildApp(config): the whole service as one Fastify instance, used by the server
// entry and by the tests alike, so tests run exactly what production runs.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerFactory } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { openStorage, type Storage } from './db/storage/storage.js';
import { uncachedIntegerSerializers } from './http/json-numbers.js';
import { registerAuthentication } from './http/authenticate.js';
import { answerClientError, answerFrameworkError } from './http/client-errors.js';
import { registerErrorHandling } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { registerPortal } from './http/portal.js';
import { registerRateLimitStore } from './http/rate-limit.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerNulRejection } from './http/reject-nul.js';
import { registerValidation } from './http/validation.js';
import { FailureLimiter } from './lib/failure-limiter.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createTokenService, resolveJwtSecret, type TokenService } from './modules/auth/tokens.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { licensesRoutes } from './modules/licenses/licenses.routes.js';
import { licenseStatsRoutes } from './modules/licenses/stats.routes.js';
import { validationRoutes } from './modules/licenses/validation.routes.js';
import { marketplaceRoutes } from './modules/marketplace/marketplace.routes.js';
import { polymartRoutes } from './modules/marketplace/polymart.routes.js';
import { registerMetrics } from './modules/metrics/metrics.routes.js';
import { ordersRoutes } from './modules/orders/orders.routes.js';
import { productsRoutes } from './modules/products/products.routes.js';
import { registrationKeysRoutes } from './modules/registration-keys/registration-keys.routes.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { ensureMasterAdmin, type GeneratedAdmin } from './modules/staff/master-admin.js';
import { loggerOptions } from './http/logger.js';
import { accountRoutes } from './modules/staff/account.routes.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { createKeyRing, type KeyRing } from './modules/signing/key-ring.js';
import { signingRoutes } from './modules/signing/signing.routes.js';
import { licenseFileRoutes } from './modules/licenses/license-file.routes.js';
import { startWebhooks } from './modules/webhooks/webhooks.plugin.js';
import { startLicenses } from './modules/licenses/licenses.plugin.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { startBlocklist } from './modules/blocklist/blocklist.plugin.js';
import { blocklistRoutes } from './modules/blocklist/blocklist.routes.js';
import { startSharingDetection } from './modules/sharing/sharing.plugin.js';
import { sharingRoutes } from './modules/sharing/sharing.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The database and every difference between SQLite and PostgreSQL (src/db/storage/). */
    storage: Storage;
    db: Db;
    tokens: TokenService;
    /** Keys that sign validation receipts and license files. */
    signingKeys: KeyRing;
    loginLimiter: FailureLimiter;
    /** The Master Admin this start generated (first start without MASTER_ADMIN_*), for the start banner. */
    generatedAdmin: GeneratedAdmin | null;
    /** Runs `fn` in one database transaction: all of its writes commit or none do. */
    transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
    /**
     * Runs reads that must agree with each other (a record and its child rows) against
     * one state of the database, while validations keep writing.
     */
    snapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
    /**
     * Like snapshot, for reads that last (a streamed list): on SQLite on a read-only
     * connection of its own, so the shared connection stays free meanwhile.
     */
    longSnapshot<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  }
}

const LOGIN_MAX_FAILURES = 10;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export interface BuildOptions {
  /** pino options or false; defaults to config.logLevel in config.logFormat (http/logger.ts). */
  logger?: boolean | object;
  /** A pino logger made before the app (the server entry logs its wait for the database); replaces `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Serves the app on a server made before it (the server entry's, listening while the database is awaited). */
  serverFactory?: FastifyServerFactory;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? loggerOptions(config) }),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Long ids in paths are still just unknown ids (404), not a 414.
    routerOptions: { maxParamLength: 4096 },
    // A URL Fastify cannot decode (e.g. /customers/%ZZ) is a client error like any other,
    // and so is bad HTTP framing: both answer {"error": "…"} (src/http/client-errors.ts).
    frameworkErrors: (error, request, reply) => answerFrameworkError(error, request, reply as unknown as FastifyReply),
    clientErrorHandler: answerClientError,
    // Every response schema compiles through it: timestamps written without V8's number cache.
    schemaController: { compilersFactory: { buildSerializer: uncachedIntegerSerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const storage = await openStorage(config.databaseUrl, {
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    onConnectionError: (err) => app.log.warn({ error: err.message }, 'database connection lost; the pool will open a new one'),
    onCheckpointError: (err, started) =>
      started
        ? app.log.error({ err }, 'WAL checkpoint worker')
        : app.log.warn({ err }, 'WAL checkpoint worker did not start; commits checkpoint as SQLite does by default'),
  });
  app.addHook('onClose', () => storage.close());
  const { db } = storage;

  app.decorate('config', config);
  app.decorate('storage', storage);
  app.decorate('db', db);
  app.decorate('tokens', createTokenService(await resolveJwtSecret(db, config.jwtSecret)));
  app.decorate(
    'signingKeys',
    await createKeyRing(db, config.signingKey, (err) => app.log.error({ err }, 'signing keys: last signing time not saved')),
  );
  // Before onClose closes the database: the last minute's signing times are kept.
  app.addHook('preClose', () => app.signingKeys.flush());
  app.decorate('transaction', storage.transaction);
  app.decorate('snapshot', storage.snapshot);
  app.decorate('longSnapshot', storage.longSnapshot);
  app.decorate('generatedAdmin', await ensureMasterAdmin(db, config.masterAdmin, app.log));
  await startWebhooks(app);
  await startLicenses(app);
  await startBlocklist(app);
  await startSharingDetection(app);

  registerSecurityHeaders(app);
  registerValidation(app);
  registerErrorHandling(app);
  registerAuthentication(app);
  registerRateLimitStore(app);
  app.decorate(
    'loginLimiter',
    new FailureLimiter(app.rateLimitStore, 'login', LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, (err) =>
      app.log.error({ err }, 'login limiter: store unavailable, attempt let through'),
    ),
  );
  registerNulRejection(app);
  await registerOpenApi(app);
  // Before the routes: its onResponse hook times every one of them.
  await registerMetrics(app, storage.pool);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(staffRoutes);
  await app.register(accountRoutes);
  await app.register(apiTokensRoutes);
  await app.register(registrationKeysRoutes);
  await app.register(rolesRoutes);
  await app.register(auditRoutes);
  await app.register(customersRoutes);
  await app.register(productsRoutes);
  await app.register(ordersRoutes);
  await app.register(licensesRoutes);
  await app.register(licenseStatsRoutes);
  await app.register(validationRoutes);
  await app.register(signingRoutes);
  await app.register(licenseFileRoutes);
  await app.register(marketplaceRoutes);
  await app.register(polymartRoutes);
  await app.register(webhooksRoutes);
  await app.register(blocklistRoutes);
  await app.register(sharingRoutes);
  await registerPortal(app);

  return app;
}
