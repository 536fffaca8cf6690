// The compose stack takes every setting from .env: .env.example lists each environment
// variable the service reads (src/config.ts), the instances read .env whole (env_file), and
// deploy/make-env.sh turns .env.example into a .env whose secrets the service accepts.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV_SETTINGS, loadConfig } from '../../src/config.js';

const ROOT = process.cwd();
const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
/** The instances' `environment:` block (the x-instance anchor). */
const instanceEnvironment = /x-instance:[\s\S]*?\n {2}environment:\n([\s\S]*?)\n {2}\S/.exec(compose)![1]!;
const fixedByCompose = [...instanceEnvironment.matchAll(/^ {4}([A-Z_]+):/gm)].map((m) => m[1]!);

/** Parses .env as compose does for these files: NAME=value lines, comments skipped. */
const parseEnv = (text: string) => Object.fromEntries([...text.matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('.env.example and compose.yaml', () => {
  it.each(ENV_SETTINGS)('.env.example lists %s', (name) => {
    const listed = new RegExp(`^#? ?${name}=`, 'm').test(example);
    const fixed = fixedByCompose.includes(name) && new RegExp(`\\b${name}\\b`).test(example);
    expect(listed || fixed, `${name}: a "${name}=" line (commented out or not), or set in compose.yaml and named in .env.example`).toBe(true);
  });

  it('gives the instances all of .env, and leaves the required secrets out (compose refuses to start on a copy)', () => {
    expect(compose).toMatch(/x-instance:[\s\S]*?\n {2}env_file: \.env\n/);
    const values = parseEnv(example);
    for (const name of ['POSTGRES_PASSWORD', 'JWT_SECRET', 'MASTER_ADMIN_PASSWORD']) {
      expect(values[name], name).toBeUndefined();
      expect(example).toMatch(new RegExp(`^#${name}=$`, 'm'));
      expect(compose, `compose refuses to start without ${name}`).toMatch(new RegExp(`\\$\\{${name}:\\?[^}]+\\}`));
    }
  });

  it('trusts X-Forwarded-For from the balancer by name, with no fixed subnet', () => {
    expect(fixedByCompose).toContain('TRUST_PROXY');
    expect(instanceEnvironment).toMatch(/^ {4}TRUST_PROXY: balancer$/m);
    expect(compose).not.toMatch(/^\s*(- )?subnet:/m);
  });
});

describe('deploy/make-env.sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'make-env-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'deploy'));
  copyFileSync(join(ROOT, '.env.example'), join(dir, '.env.example'));
  copyFileSync(join(ROOT, 'deploy/make-env.sh'), join(dir, 'deploy/make-env.sh'));

  it('writes a .env with fresh secrets the service accepts, readable by its owner only, and never overwrites one', () => {
    execFileSync('sh', [join(dir, 'deploy/make-env.sh')], { stdio: 'pipe' });
    const env = parseEnv(readFileSync(join(dir, '.env'), 'utf8'));
    const secrets = ['POSTGRES_PASSWORD', 'JWT_SECRET', 'MASTER_ADMIN_PASSWORD'].map((name) => env[name]!);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(new Set(secrets).size).toBe(3);
    expect(env.MARKETPLACE_SECRET).toBeUndefined(); // optional secrets stay commented out
    expect(statSync(join(dir, '.env')).mode & 0o077).toBe(0);
    const config = loadConfig({
      ...env,
      DATABASE_URL: `postgres://licensing:${env.POSTGRES_PASSWORD}@postgres:5432/licensing`,
    });
    expect(config.masterAdmin).toMatchObject({ username: 'admin', password: env.MASTER_ADMIN_PASSWORD });

    const before = readFileSync(join(dir, '.env'), 'utf8');
    expect(() => execFileSync('sh', [join(dir, 'deploy/make-env.sh')], { stdio: 'pipe' })).toThrow(/\.env exists already/);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(before);
  });
});
