// GET /metrics: closed unless configured, Bearer METRICS_TOKEN in constant time or a
// localhost-only METRICS_PORT, and the figures after known traffic.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../../../test/helpers/http.js';
import { newLicense } from '../../../test/helpers/fixtures.js';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line (`name{labels} value`) in the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(' ')[0]!;
    if (wanted.every((w) => labelText.includes(w))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each(DIALECTS)('metrics (%s)', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is not served when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    t = await startTestApp(dialect);
    expect((await t.req('GET', '/metrics')).status).toBe(404);
    expect((await t.req('GET', '/metrics', { token: TOKEN })).status).toBe(404);
  });

  it('METRICS_TOKEN: 401 without or with a wrong token; counts validations, webhook outcomes, 429s and latency after known traffic', async () => {
    t = await startTestApp(dialect, { METRICS_TOKEN: TOKEN, VALIDATION_RATE_LIMIT: '6' });
    expect((await t.req('GET', '/metrics')).status).toBe(401);
    const wrong = await t.req('GET', '/metrics', { token: `${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'Invalid or missing metrics token' });
    expect(wrong.headers['www-authenticate']).toContain('Bearer');

    const license = await newLicense(t, { maxHwids: 1 });
    const validate = (over: Record<string, string>) =>
      t!.req('POST', '/licenses/validate', { body: { licenseId: license.id, productId: license.productId, hwid: 'HW-1', ...over } });
    await validate({}); // VALID (binds HW-1)
    await validate({}); // VALID
    await validate({ hwid: 'HW-2' }); // HWID_LIMIT_REACHED
    await validate({ productId: 'other' }); // PRODUCT_MISMATCH
    await validate({ licenseId: 'NO-SUCH-LICENSE' }); // unknown
    await validate({}); // 6th request in the minute: still allowed
    expect((await validate({})).status).toBe(429);
    expect((await t.req('POST', '/marketplace', { form: { secret: 'wrong', user_id: '1', resource_id: 'r', marketplace: 'true' } })).status).toBe(401);

    const res = await t.req('GET', '/metrics', { token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.text;
    expect(sample(text, 'licensing_validations_total', { outcome: 'valid', reason: 'VALID' })).toBe(3);
    expect(sample(text, 'licensing_validations_total', { outcome: 'invalid', reason: 'HWID_LIMIT_REACHED' })).toBe(1);
    expect(sample(text, 'licensing_validations_total', { outcome: 'invalid', reason: 'PRODUCT_MISMATCH' })).toBe(1);
    expect(sample(text, 'licensing_validations_total', { outcome: 'invalid', reason: 'UNKNOWN_LICENSE' })).toBe(1);
    expect(sample(text, 'licensing_rate_limited_total', { route: '/licenses/validate' })).toBe(1);
    expect(sample(text, 'licensing_webhook_requests_total', { outcome: 'invalid_secret' })).toBe(1);
    // Per route pattern, not per URL: the license id does not appear as a label.
    expect(sample(text, 'licensing_http_request_duration_seconds_count', { route: '/licenses/validate', status_code: '200' })).toBe(6);
    expect(sample(text, 'licensing_http_request_duration_seconds_count', { route: '/licenses', method: 'POST', status_code: '201' })).toBe(1);
    expect(text).not.toContain(license.id);
    expect(sample(text, 'licensing_group_commit_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'licensing_group_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    if (dialect === 'postgres') {
      expect(sample(text, 'licensing_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'licensing_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(sample(text, 'licensing_db_pool_connections')).toBeUndefined();
    }
  });

  it('METRICS_PORT: served on 127.0.0.1 without credentials, and not on the main port', async () => {
    const port = await freePort();
    t = await startTestApp(dialect, { METRICS_PORT: String(port) });
    expect((await t.req('GET', '/metrics')).status).toBe(404);
    const res = await request(`http://127.0.0.1:${port}`, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('licensing_http_request_duration_seconds');
    expect((await request(`http://127.0.0.1:${port}`, 'GET', '/other')).status).toBe(404);
  });
});
