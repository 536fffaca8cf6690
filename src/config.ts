// One typed configuration object, read from an optional JSON file (CONFIG_FILE) and
// overridden by environment variables. A bad value stops the start and names its key.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isExampleSecret } from './example-secrets.js';
import { isHostName } from './http/trusted-proxies.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from './modules/webhooks/retry-schedule.js';
import { DAY_SECONDS } from './lib/time.js';

export interface Config {
  port: number;
  host: string;
  /** `sqlite:<path>` or `postgres://…` */
  databaseUrl: string;
  redisUrl: string | null;
  /** Prefix of every Redis key this service writes (several deployments can share one Redis). */
  redisKeyPrefix: string;
  marketplaceSecret: string | null;
  /** Key of the X-Polymart-Signature HMAC; null: the Polymart routes answer 503. */
  polymartWebhookSecret: string | null;
  /** Key of the placeholder requests' signature, when Polymart gave it a secret of its own; null: polymartWebhookSecret. */
  polymartPlaceholderSecret: string | null;
  jwtSecret: string | null;
  /** PKCS#8 PEM of the Ed25519 key that signs receipts and license files; null: generated and stored in the database. */
  signingKey: string | null;
  /**
   * Fastify's trustProxy: false, true (trust every proxy) or a comma-separated list of proxy
   * addresses, CIDRs and host names (the addresses a name resolves to, re-resolved).
   */
  trustProxy: boolean | string;
  validationRateLimit: number;
  webhookRateLimit: number;
  /** 0 keeps every attempt. */
  validationHistoryMax: number;
  /** Largest release file an upload may send (PUT /releases/{id}/file); larger: 413. */
  releaseMaxBytes: number;
  masterAdmin: { username: string; password: string; email: string | null } | null;
  logLevel: string;
  /** How long SQLite waits for another connection's write lock before the request fails with 503. */
  sqliteBusyTimeoutMs: number;
  /** How long one PostgreSQL statement of the service may run before it is cancelled and the request fails with 503 (0: no limit). */
  postgresStatementTimeoutMs: number;
  /** How long the start waits for an unreachable PostgreSQL (answering 503 meanwhile) before exiting. */
  databaseWaitSeconds: number;
  /** pretty: readable lines; json: one JSON object per line; null: pretty when stdout is a terminal. */
  logFormat: 'pretty' | 'json' | null;
  /** Bearer token that opens GET /metrics on the main port; null keeps it closed there. */
  metricsToken: string | null;
  /** Port of a metrics-only listener bound to 127.0.0.1; null for none. */
  metricsPort: number | null;
  /** Delays (seconds) before each retry of a failed webhook delivery; after the last, the event is failed. */
  webhookRetryScheduleSeconds: number[];
  /** Lets webhook endpoints target loopback and private networks (tests, a receiver on the same host). */
  webhookAllowPrivateNetworks: boolean;
  /**
   * open (SPEC.md): roles:write defines any role and staff:manage assigns any role to others.
   * subset: a caller other than the Master Admin grants only permissions it holds itself.
   */
  roleGrants: 'open' | 'subset';
}

export class ConfigError extends Error {}

type Source = Record<string, unknown>;

/** Each setting: its environment variable and its path in the JSON file. */
const KEYS = {
  port: ['PORT', 'port'],
  host: ['HOST', 'host'],
  databaseUrl: ['DATABASE_URL', 'database.url'],
  redisUrl: ['REDIS_URL', 'redis.url'],
  redisKeyPrefix: ['REDIS_KEY_PREFIX', 'redis.keyPrefix'],
  marketplaceSecret: ['MARKETPLACE_SECRET', 'marketplace.secret'],
  polymartWebhookSecret: ['POLYMART_WEBHOOK_SECRET', 'polymart.webhookSecret'],
  polymartPlaceholderSecret: ['POLYMART_PLACEHOLDER_SECRET', 'polymart.placeholderSecret'],
  jwtSecret: ['JWT_SECRET', 'auth.jwtSecret'],
  signingKey: ['SIGNING_KEY', 'signing.privateKey'],
  trustProxy: ['TRUST_PROXY', 'trustProxy'],
  validationRateLimit: ['VALIDATION_RATE_LIMIT', 'rateLimits.validation'],
  webhookRateLimit: ['WEBHOOK_RATE_LIMIT', 'rateLimits.webhook'],
  validationHistoryMax: ['VALIDATION_HISTORY_MAX', 'validation.historyMax'],
  releaseMaxBytes: ['RELEASE_MAX_BYTES', 'releases.maxBytes'],
  masterAdminUsername: ['MASTER_ADMIN_USERNAME', 'masterAdmin.username'],
  masterAdminPassword: ['MASTER_ADMIN_PASSWORD', 'masterAdmin.password'],
  masterAdminEmail: ['MASTER_ADMIN_EMAIL', 'masterAdmin.email'],
  logLevel: ['LOG_LEVEL', 'log.level'],
  sqliteBusyTimeoutMs: ['SQLITE_BUSY_TIMEOUT_MS', 'database.sqliteBusyTimeoutMs'],
  postgresStatementTimeoutMs: ['POSTGRES_STATEMENT_TIMEOUT_MS', 'database.postgresStatementTimeoutMs'],
  databaseWaitSeconds: ['DATABASE_WAIT_SECONDS', 'database.waitSeconds'],
  logFormat: ['LOG_FORMAT', 'log.format'],
  metricsToken: ['METRICS_TOKEN', 'metrics.token'],
  metricsPort: ['METRICS_PORT', 'metrics.port'],
  webhookRetryScheduleSeconds: ['WEBHOOK_RETRY_SCHEDULE_SECONDS', 'webhooks.retryScheduleSeconds'],
  webhookAllowPrivateNetworks: ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'webhooks.allowPrivateNetworks'],
  roleGrants: ['ROLE_GRANTS', 'auth.roleGrants'],
} as const;

type Key = keyof typeof KEYS;

/** Every environment variable the service reads (.env.example lists each for the compose stack). */
export const ENV_SETTINGS: readonly string[] = ['CONFIG_FILE', ...Object.values(KEYS).map(([envName]) => envName)];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readFileSource(path: string): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE: cannot read ${path} (${(err as Error).message})`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Source;
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE: ${path} is not a JSON object (${(err as Error).message})`);
  }
}

function fromFile(file: Source, path: string): unknown {
  let node: unknown = file;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Source)[part];
  }
  return node;
}

/**
 * Loads the configuration. `env` defaults to process.env; tests pass their own.
 * Throws ConfigError naming the offending key.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const file = env.CONFIG_FILE ? readFileSource(env.CONFIG_FILE) : {};

  /** Raw value and the name to blame: the env variable when set, else the file key. */
  const raw = (key: Key): { value: unknown; name: string } => {
    const [envName, filePath] = KEYS[key];
    const fromEnv = env[envName];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, name: envName };
    return { value: fromFile(file, filePath), name: `${filePath} (CONFIG_FILE)` };
  };

  const str = (key: Key): string | null => {
    const { value, name } = raw(key);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new ConfigError(`${name} must be a string`);
    return value;
  };

  const int = (key: Key, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const { value, name } = raw(key);
    if (value === undefined || value === null) return fallback;
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(value)}`);
    }
    return n;
  };

  const databaseUrl = str('databaseUrl') ?? 'sqlite:./data/licensing.db';
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`${raw('databaseUrl').name} must be sqlite:<path> or postgres://…, got ${JSON.stringify(databaseUrl)}`);
  }

  const redisUrl = str('redisUrl');
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`${raw('redisUrl').name} must be a redis:// or rediss:// URL`);
  }

  const jwtSecret = str('jwtSecret');
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret, 'utf8') < 32) {
    throw new ConfigError(`${raw('jwtSecret').name} must be at least 32 bytes long`);
  }

  const signingKey = readSigningKey(str('signingKey'), raw('signingKey').name);

  const logLevel = str('logLevel') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`${raw('logLevel').name} must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const logFormat = str('logFormat');
  if (logFormat !== null && logFormat !== 'pretty' && logFormat !== 'json') {
    throw new ConfigError(`${raw('logFormat').name} must be pretty or json`);
  }

  const metricsToken = str('metricsToken');
  if (metricsToken !== null && Buffer.byteLength(metricsToken, 'utf8') < 16) {
    throw new ConfigError(`${raw('metricsToken').name} must be at least 16 bytes long`);
  }
  const metricsPort = int('metricsPort', 0, 1, 65535);

  const adminUsername = str('masterAdminUsername');
  const adminPassword = str('masterAdminPassword');
  if ((adminUsername === null) !== (adminPassword === null)) {
    throw new ConfigError('MASTER_ADMIN_USERNAME and MASTER_ADMIN_PASSWORD must be set together');
  }
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError(`${raw('masterAdminPassword').name} must be at least 8 characters`);
  }

  refuseExampleSecrets(raw, { databaseUrl, redisUrl });

  const roleGrants = str('roleGrants') ?? 'open';
  if (roleGrants !== 'open' && roleGrants !== 'subset') {
    throw new ConfigError(`${raw('roleGrants').name} must be open or subset, got ${JSON.stringify(roleGrants)}`);
  }

  const retrySchedule = raw('webhookRetryScheduleSeconds');
  const webhookRetryScheduleSeconds = parseRetrySchedule(retrySchedule.value, retrySchedule.name);
  const allowPrivate = raw('webhookAllowPrivateNetworks');
  const webhookAllowPrivateNetworks = parseBoolean(allowPrivate.value, allowPrivate.name);

  return {
    port: int('port', 3000, 0, 65535),
    host: str('host') ?? '0.0.0.0',
    databaseUrl,
    redisUrl,
    redisKeyPrefix: str('redisKeyPrefix') ?? 'licensing:',
    marketplaceSecret: str('marketplaceSecret'),
    polymartWebhookSecret: str('polymartWebhookSecret'),
    polymartPlaceholderSecret: str('polymartPlaceholderSecret'),
    jwtSecret,
    signingKey,
    trustProxy: parseTrustProxy(raw('trustProxy')),
    validationRateLimit: int('validationRateLimit', 30, 1),
    webhookRateLimit: int('webhookRateLimit', 60, 1),
    validationHistoryMax: int('validationHistoryMax', 1000, 0),
    releaseMaxBytes: int('releaseMaxBytes', 100 * 1024 * 1024, 1),
    masterAdmin:
      adminUsername !== null && adminPassword !== null
        ? { username: adminUsername, password: adminPassword, email: str('masterAdminEmail') }
        : null,
    logLevel,
    sqliteBusyTimeoutMs: int('sqliteBusyTimeoutMs', 5000, 0, 600_000),
    postgresStatementTimeoutMs: int('postgresStatementTimeoutMs', 5000, 0, 600_000),
    databaseWaitSeconds: int('databaseWaitSeconds', 120, 0, DAY_SECONDS),
    logFormat,
    metricsToken,
    metricsPort: metricsPort === 0 ? null : metricsPort,
    webhookRetryScheduleSeconds,
    webhookAllowPrivateNetworks,
    roleGrants,
  };
}

/** The settings that hold a secret: a value the repository shows as an example is public. */
const SECRET_KEYS = ['jwtSecret', 'masterAdminPassword', 'marketplaceSecret', 'polymartWebhookSecret', 'polymartPlaceholderSecret', 'metricsToken'] as const satisfies readonly Key[];

/**
 * Stops the start when a secret setting, or the password inside DATABASE_URL or REDIS_URL,
 * is one of the repository's example values (src/example-secrets.ts). The message names the
 * setting, never the value.
 */
function refuseExampleSecrets(
  raw: (key: Key) => { value: unknown; name: string },
  urls: { databaseUrl: string; redisUrl: string | null },
): void {
  const advice = 'anyone who read the repository knows it; set a fresh random value (sh deploy/make-env.sh writes a .env with new ones)';
  for (const key of SECRET_KEYS) {
    const { value, name } = raw(key);
    if (typeof value === 'string' && isExampleSecret(value)) throw new ConfigError(`${name} is an example value from the documentation: ${advice}`);
  }
  for (const key of ['databaseUrl', 'redisUrl'] as const) {
    const url = urls[key];
    if (url === null || url.startsWith('sqlite:')) continue;
    const password = urlPassword(url);
    if (password !== null && isExampleSecret(password)) {
      throw new ConfigError(`${raw(key).name} has an example password from the documentation: ${advice}`);
    }
  }
}

/** The password part of a postgres:// or redis:// URL, decoded; null when there is none. */
function urlPassword(url: string): string | null {
  try {
    const password = new URL(url).password;
    return password === '' ? null : decodeURIComponent(password);
  } catch {
    return null; // the driver reports a malformed URL itself
  }
}

/** `5,60,300`, or a JSON array of numbers in the file; each 0 to 7 days, at most 50 of them. */
function parseRetrySchedule(value: unknown, name: string): number[] {
  if (value === undefined || value === null) return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const items = typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value;
  const numbers = Array.isArray(items) ? items.map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item)) : null;
  if (!numbers || numbers.length === 0 || numbers.length > 50 || !numbers.every((n) => Number.isInteger(n) && n >= 0 && n <= 7 * DAY_SECONDS)) {
    throw new ConfigError(`${name} must be a comma-separated list of 1 to 50 delays in whole seconds (each at most 604800), got ${JSON.stringify(value)}`);
  }
  return numbers as number[];
}

function parseBoolean(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** Checks the PEM now so a bad key stops the start; the message never quotes the key. */
function readSigningKey(pem: string | null, name: string): string | null {
  if (pem === null) return null;
  const text = pem.includes('\\n') && !pem.includes('\n') ? pem.replaceAll('\\n', '\n') : pem; // one-line env values
  try {
    const key = createPrivateKey({ key: text, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType} key`);
  } catch (err) {
    throw new ConfigError(`${name} must be an Ed25519 private key in PKCS#8 PEM (got ${(err as Error).message.startsWith('an ') ? (err as Error).message : 'something unreadable'})`);
  }
  return text;
}

/** false, true, or a comma-separated list of addresses, CIDRs and host names (src/http/trusted-proxies.ts). */
function parseTrustProxy({ value, name }: { value: unknown; name: string }): boolean | string {
  if (value === undefined || value === null || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  const entries = typeof value === 'string' ? value.split(',').map((entry) => entry.trim()).filter(Boolean) : [];
  const valid = (entry: string) => isIP(entry) !== 0 || ipaddr.isValidCIDR(entry) || isHostName(entry);
  if (entries.length > 0 && entries.every(valid)) return entries.join(',');
  throw new ConfigError(`${name} must be true, false or a comma-separated list of proxy addresses, CIDRs or host names, got ${JSON.stringify(value)}`);
}
