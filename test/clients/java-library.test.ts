// The Java library itself (not its command line): validateAsync completes off the calling
// thread with the blocking call's result, the cache is written 0600, and a cache that
// cannot be written is logged through System.Logger while the answer stays VALID.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLicense } from '../helpers/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const JAR = 'clients/java/build/license-client.jar';
const CHECK = 'test/clients/java/LibraryCheck.java';

describe('Java library', () => {
  let t: TestApp;
  let dir: string;
  let keys: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { VALIDATION_RATE_LIMIT: '100000' });
    dir = mkdtempSync(join(tmpdir(), 'java-library-'));
    keys = join(dir, 'jwks.json');
    writeFileSync(keys, (await t.req('GET', '/.well-known/jwks.json')).text);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const check = async (cache: string) => {
    const license = await newLicense(t);
    return run('java', ['-cp', JAR, CHECK, t.baseUrl, license.id, license.productId, keys, cache], { timeout: 60_000 });
  };

  it('validateAsync returns at once and completes on another thread with what validate answers; the cache is 0600', async () => {
    const cache = join(dir, 'cache', 'license.json');
    const { stdout, stderr } = await check(cache);
    expect(stdout.trim().split('\n')).toEqual(['returned-before-answer true', 'completed-on-caller-thread false', 'async VALID', 'blocking VALID']);
    expect(stderr).toBe('');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
  });

  it('logs a cache it cannot write and still answers VALID', async () => {
    const blocked = join(dir, 'a-directory');
    mkdirSync(blocked);
    const { stdout, stderr } = await check(blocked);
    expect(stdout).toContain('async VALID');
    expect(stdout).toContain('blocking VALID');
    expect(stderr).toMatch(/WARNING: cannot write license cache .*a-directory; offline grace unavailable/);
  });
});
