import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_SETTINGS, loadConfig } from './config.js';
import { EXAMPLE_SECRETS } from './example-secrets.js';

describe('configuration', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: 'sqlite:./data/licensing.db',
      redisUrl: null,
      marketplaceSecret: null,
      polymartWebhookSecret: null,
      polymartPlaceholderSecret: null,
      jwtSecret: null,
      trustProxy: false,
      validationRateLimit: 30,
      webhookRateLimit: 60,
      validationHistoryMax: 1000,
      masterAdmin: null,
      logLevel: 'info',
      logFormat: null,
      metricsToken: null,
      metricsPort: null,
    });
  });

  it('reads ROLE_GRANTS: open by default, subset on request, anything else refused naming the key', () => {
    expect(loadConfig({}).roleGrants).toBe('open');
    expect(loadConfig({ ROLE_GRANTS: 'subset' }).roleGrants).toBe('subset');
    expect(() => loadConfig({ ROLE_GRANTS: 'strict' })).toThrow(/ROLE_GRANTS must be open or subset/);
  });

  it('reads the log format and the metrics settings', () => {
    expect(loadConfig({ LOG_FORMAT: 'json', METRICS_TOKEN: 'a-token-of-16-bytes', METRICS_PORT: '9464' })).toMatchObject({
      logFormat: 'json',
      metricsToken: 'a-token-of-16-bytes',
      metricsPort: 9464,
    });
  });

  it('reads a JSON file and lets environment variables override it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ port: 4000, marketplace: { secret: 'from-file' }, polymart: { webhookSecret: 'pm-file' }, rateLimits: { validation: 50 } }));
    const config = loadConfig({ CONFIG_FILE: file, PORT: '5000', POLYMART_PLACEHOLDER_SECRET: 'pm-env' });
    expect(config.port).toBe(5000);
    expect(config.marketplaceSecret).toBe('from-file');
    expect(config.polymartWebhookSecret).toBe('pm-file');
    expect(config.polymartPlaceholderSecret).toBe('pm-env');
    expect(config.validationRateLimit).toBe(50);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ VALIDATION_RATE_LIMIT: '0' }, 'VALIDATION_RATE_LIMIT'],
    [{ WEBHOOK_RATE_LIMIT: '1.5' }, 'WEBHOOK_RATE_LIMIT'],
    [{ VALIDATION_HISTORY_MAX: '-1' }, 'VALIDATION_HISTORY_MAX'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe?' }, 'TRUST_PROXY'],
    [{ MASTER_ADMIN_USERNAME: 'boss' }, 'MASTER_ADMIN_PASSWORD'],
    [{ MASTER_ADMIN_USERNAME: 'boss', MASTER_ADMIN_PASSWORD: 'short' }, 'MASTER_ADMIN_PASSWORD'],
    [{ CONFIG_FILE: '/nonexistent/config.json' }, 'CONFIG_FILE'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '0' }, 'METRICS_PORT'],
  ])('stops on a bad value and names the key: %o', (env, key) => {
    expect(() => loadConfig(env)).toThrow(key);
  });

  it('names the file key when the bad value comes from the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ rateLimits: { webhook: 'lots' } }));
    expect(() => loadConfig({ CONFIG_FILE: file })).toThrow('rateLimits.webhook');
  });

  it('reads TRUST_PROXY as addresses, CIDRs and host names', () => {
    expect(loadConfig({ TRUST_PROXY: 'balancer' }).trustProxy).toBe('balancer');
    expect(loadConfig({ TRUST_PROXY: ' balancer , 10.0.0.0/8,::1 ' }).trustProxy).toBe('balancer,10.0.0.0/8,::1');
    for (const bad of ['maybe?', '10.0.0.0/33', 'bal ancer', ',', 'http://balancer']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be true, false or a comma-separated list/);
    }
  });
});

describe('example secrets', () => {
  const SECRET_SETTINGS = ['JWT_SECRET', 'MASTER_ADMIN_PASSWORD', 'MARKETPLACE_SECRET', 'POLYMART_WEBHOOK_SECRET', 'POLYMART_PLACEHOLDER_SECRET', 'METRICS_TOKEN'];
  const withAdmin = (env: Record<string, string>) => ({ MASTER_ADMIN_USERNAME: 'boss', ...env });
  /** Long enough for every setting's own minimum, so only the example rule can refuse it. */
  const examples = [...EXAMPLE_SECRETS, 'CHANGE-ME-to-32-or-more-random-bytes-xxxxxxxx', ' s3cret ', 'changeme-changeme-changeme-changeme', '<your secret of 32 or more bytes here>'];

  it.each(SECRET_SETTINGS)('refuses an example value for %s, naming the setting and not the value', (name) => {
    for (const value of examples) {
      if (name === 'JWT_SECRET' && Buffer.byteLength(value) < 32) continue; // refused as too short already
      if (name === 'METRICS_TOKEN' && Buffer.byteLength(value) < 16) continue;
      if (name === 'MASTER_ADMIN_PASSWORD' && value.length < 8) continue;
      let message = '';
      try {
        loadConfig(withAdmin({ MASTER_ADMIN_PASSWORD: 'a-fresh-admin-password', [name]: value }));
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, `${name}=${value}`).toMatch(new RegExp(`^${name} is an example value`));
      expect(message).not.toContain(value.trim());
    }
  });

  it('refuses the short examples of JWT_SECRET as too short', () => {
    expect(() => loadConfig({ JWT_SECRET: 's3cret' })).toThrow('JWT_SECRET must be at least 32 bytes long');
  });

  it('refuses an example in the configuration file, naming its key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ polymart: { webhookSecret: 's3cret' } }));
    expect(() => loadConfig({ CONFIG_FILE: file })).toThrow(/^polymart\.webhookSecret \(CONFIG_FILE\) is an example value/);
  });

  it('refuses an example password inside DATABASE_URL and REDIS_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://licensing:change-me-postgres-password@postgres:5432/licensing' })).toThrow(
      /^DATABASE_URL has an example password/,
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://:s3cret@redis:6379' })).toThrow(/^REDIS_URL has an example password/);
    expect(loadConfig({ DATABASE_URL: 'postgres://licensing:Zq8v1fresh@postgres:5432/licensing' }).databaseUrl).toContain('Zq8v1fresh');
  });

  it('starts with fresh values', () => {
    const config = loadConfig({
      JWT_SECRET: 'k2N8dVx0Qm7rT1yP4sW9bE6uH3jL5cA0',
      MASTER_ADMIN_USERNAME: 'boss',
      MASTER_ADMIN_PASSWORD: 'a password of my own',
      MARKETPLACE_SECRET: 'bbb-7f3a9c',
      POLYMART_WEBHOOK_SECRET: 'pm-91d0e2',
    });
    expect(config.masterAdmin?.password).toBe('a password of my own');
  });

  it('lists every environment variable the service reads', () => {
    expect(ENV_SETTINGS).toEqual(expect.arrayContaining(['CONFIG_FILE', 'JWT_SECRET', 'POLYMART_WEBHOOK_SECRET', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'TRUST_PROXY']));
  });
});
