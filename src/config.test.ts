import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

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
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
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
});
