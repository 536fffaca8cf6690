// buildApp(config): the whole service as one Fastify instance, used by the server
// entry and by the tests alike, so tests run exactly what production runs.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerFactory } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { storagePlugin } from './db/storage/storage.plugin.js';
import { uncachedIntegerSerializers } from './http/json-numbers.js';
import { answerClientError, answerFrameworkError } from './http/client-errors.js';
import { trustedProxies } from './http/trusted-proxies.js';
import { httpPlugin, portalPlugin, rateLimitPlugin, routesPlugin } from './http/http.plugin.js';
import { loggerOptions } from './http/logger.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authPlugin } from './modules/auth/auth.plugin.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { blocklistPlugin } from './modules/blocklist/blocklist.plugin.js';
import { blocklistRoutes } from './modules/blocklist/blocklist.routes.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { eventsPlugin } from './modules/events/events.plugin.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { licenseFileRoutes } from './modules/licenses/license-file.routes.js';
import { licensesPlugin } from './modules/licenses/licenses.plugin.js';
import { licensesRoutes } from './modules/licenses/licenses.routes.js';
import { licenseStatsRoutes } from './modules/licenses/stats.routes.js';
import { validationRoutes } from './modules/validation/validation.routes.js';
import { validationPlugin } from './modules/validation/validation.plugin.js';
import { marketplaceRoutes } from './modules/marketplace/marketplace.routes.js';
import { polymartRoutes } from './modules/marketplace/polymart.routes.js';
import { builtByBitRoutes } from './modules/marketplace/builtbybit.routes.js';
import { salesRoutes } from './modules/sales/sales.routes.js';
import { metricsPlugin } from './modules/metrics/metrics.plugin.js';
import { ordersRoutes } from './modules/orders/orders.routes.js';
import { productsRoutes } from './modules/products/products.routes.js';
import { registrationKeysRoutes } from './modules/registration-keys/registration-keys.routes.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { sharingPlugin } from './modules/sharing/sharing.plugin.js';
import { sharingRoutes } from './modules/sharing/sharing.routes.js';
import { signingPlugin } from './modules/signing/signing.plugin.js';
import { signingRoutes } from './modules/signing/signing.routes.js';
import { accountRoutes } from './modules/staff/account.routes.js';
import { staffPlugin } from './modules/staff/staff.plugin.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { webhooksPlugin } from './modules/webhooks/webhooks.plugin.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { releasesRoutes } from './modules/releases/releases.routes.js';
import { releaseFilesRoutes } from './modules/releases/release-files.routes.js';
import { releaseDeliveryRoutes } from './modules/releases/release-delivery.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/**
 * The API's routes, one plugin per module, in the order of the API document (each reads
 * the decorators it needs when it is registered: all are made by the plugins before).
 */
const ROUTES = [
  healthRoutes, authRoutes, staffRoutes, accountRoutes, apiTokensRoutes, registrationKeysRoutes, rolesRoutes, auditRoutes,
  customersRoutes, productsRoutes, ordersRoutes, licensesRoutes, salesRoutes, licenseStatsRoutes, validationRoutes, signingRoutes,
  licenseFileRoutes, marketplaceRoutes, polymartRoutes, builtByBitRoutes, webhooksRoutes, blocklistRoutes, sharingRoutes,
  releasesRoutes, releaseFilesRoutes, releaseDeliveryRoutes,
];

/**
 * The app, plugin by plugin. Each names the plugins it needs (`fastify-plugin`'s
 * `dependencies`): Fastify refuses to start when one is listed before them. On close,
 * every preClose hook (signing times saved, workers stopped, hits flushed) runs before
 * storage's onClose closes the database.
 */
export const PLUGINS = [
  storagePlugin, // the database: storage, db, snapshot, longSnapshot
  eventsPlugin, // webhookSubscriptions, changeFeed, transaction
  rateLimitPlugin, // rateLimitStore (Redis or memory)
  authPlugin, // tokens, loginLimiter
  signingPlugin, // signingKeys
  staffPlugin, // the Master Admin exists (generatedAdmin)
  webhooksPlugin, // the delivery worker
  licensesPlugin, // the expiring/expired scan
  blocklistPlugin, // blocklist
  sharingPlugin, // sharing
  validationPlugin, // validation: the one decision path (blocklist, versions, engine, sharing)
  httpPlugin, // headers, validation, errors, authentication, NUL rejection, OpenAPI
  metricsPlugin, // GET /metrics and the timing of every route
  routesPlugin(ROUTES),
  portalPlugin,
];

export interface BuildOptions {
  /** pino options or false; defaults to config.logLevel in config.logFormat (http/logger.ts). */
  logger?: boolean | object;
  /** A pino logger made before the app (the server entry logs its wait for the database); replaces `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Serves the app on a server made before it (the server entry's, listening while the database is awaited). */
  serverFactory?: FastifyServerFactory;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const proxies = trustedProxies(config.trustProxy);
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? loggerOptions(config) }),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    trustProxy: proxies.option,
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

  proxies.attach(app);
  app.decorate('config', config);
  for (const plugin of PLUGINS) await app.register(plugin);

  return app;
}
