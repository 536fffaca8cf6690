// The service and the CLI refuse to start on an example secret: one line naming the
// setting, exit status 1, no stack trace, and the value itself nowhere in the output.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SECRETS, isExampleSecret } from './example-secrets.js';

function start(entry: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    env: { ...process.env, DATABASE_URL: 'sqlite::memory:', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('example secrets at start', () => {
  it.each([
    ['JWT_SECRET', { JWT_SECRET: 'change-me-to-32-or-more-random-bytes-xxxxxxxx' }],
    ['MASTER_ADMIN_PASSWORD', { MASTER_ADMIN_USERNAME: 'admin', MASTER_ADMIN_PASSWORD: 'change-me-admin-password' }],
    ['MARKETPLACE_SECRET', { MARKETPLACE_SECRET: 's3cret' }],
    ['POLYMART_WEBHOOK_SECRET', { POLYMART_WEBHOOK_SECRET: 's3cret' }],
  ])('the server refuses an example %s', (name, env) => {
    const result = start('src/server.ts', [], env);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^Invalid configuration: ${name} is an example value from the documentation: .*deploy/make-env\\.sh`));
    expect(result.stderr.trim().split('\n')).toHaveLength(1); // no stack trace
    expect(result.stdout + result.stderr).not.toContain(Object.values(env).at(-1));
  });

  it('the CLI refuses one too', () => {
    const result = start('src/cli.ts', ['migrate'], { MASTER_ADMIN_USERNAME: 'boss', MASTER_ADMIN_PASSWORD: 'a long password' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Invalid configuration: MASTER_ADMIN_PASSWORD is an example value/);
    expect(result.stderr).not.toContain('a long password');
  });

  it('knows the old .env.example values, the README and docs examples, and placeholders', () => {
    for (const value of ['change-me-admin-password', 'change-me-postgres-password', 'a long password', 's3cret']) expect(EXAMPLE_SECRETS).toContain(value);
    expect(isExampleSecret("'A Long Password'")).toBe(true);
    expect(isExampleSecret('ChangeMe123')).toBe(true);
    expect(isExampleSecret('<16+ bytes>')).toBe(true);
    expect(isExampleSecret('s3cret-but-longer')).toBe(false);
    expect(isExampleSecret('Zk1f0Vq7mW2pX9sL')).toBe(false);
  });
});
