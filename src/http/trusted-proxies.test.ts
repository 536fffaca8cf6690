// TRUST_PROXY by host name: only the addresses the name resolves to may set
// X-Forwarded-For (the compose stack's `TRUST_PROXY=balancer`); any other peer, a host's
// gateway included, is recorded as itself, and a proxy that comes back on a new address is
// trusted from its first request.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newLicense, readLicense, validate } from '../../test/helpers/fixtures.js';
import { request } from '../../test/helpers/http.js';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { clientIp } from './client-ip.js';
import { isHostName, trustedProxies, type TrustedProxiesOptions } from './trusted-proxies.js';

let app: FastifyInstance | null = null;
let url = '';

/** A bare app answering the caller's address as the service records it. */
async function startEcho(setting: string, options: TrustedProxiesOptions): Promise<void> {
  const proxies = trustedProxies(setting, options);
  app = Fastify({ trustProxy: proxies.option });
  proxies.attach(app);
  app.get('/ip', async (req) => ({ ip: clientIp(req) }));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
}

const ipSeen = async (from: string, forwarded?: string) =>
  (await request(url, 'GET', '/ip', { localAddress: from, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })).json.ip as string;

describe('TRUST_PROXY with a host name', () => {
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('tells names from addresses and CIDRs', () => {
    expect(['balancer', 'lb.internal', 'app-1'].every(isHostName)).toBe(true);
    expect(['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '-bad', 'a..b', ''].some(isHostName)).toBe(false);
  });

  it('believes X-Forwarded-For only from the addresses the name resolves to', async () => {
    await startEcho('balancer', { resolve: async () => ['127.0.0.2'] });
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    // Another peer on the same network (a host's gateway): its header is not believed.
    expect(await ipSeen('127.0.0.1', '203.0.113.7')).toBe('127.0.0.1');
    expect(await ipSeen('127.0.0.3', '203.0.113.7')).toBe('127.0.0.3');
    expect(await ipSeen('127.0.0.2')).toBe('127.0.0.2');
  });

  it('trusts a proxy that came back on a new address from its first request, and no longer the old one', async () => {
    let current = ['127.0.0.2'];
    await startEcho('balancer', { resolve: async () => current, missRefreshMinMs: 0 });
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    current = ['127.0.0.4'];
    expect(await ipSeen('127.0.0.4', '203.0.113.8')).toBe('203.0.113.8');
    expect(await ipSeen('127.0.0.2', '203.0.113.9')).toBe('127.0.0.2');
  });

  it('looks the name up at most once a second however many untrusted peers send the header', async () => {
    let lookups = 0;
    await startEcho('balancer', { resolve: async () => ((lookups += 1), ['127.0.0.2']) });
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    const before = lookups;
    for (let i = 0; i < 20; i += 1) expect(await ipSeen('127.0.0.5', '203.0.113.10')).toBe('127.0.0.5');
    expect(lookups - before).toBeLessThanOrEqual(1);
  });

  it('keeps what it knew when a lookup fails for now, trusts nothing once the name is gone', async () => {
    let answer: () => string[] = () => ['127.0.0.2'];
    await startEcho('balancer', { resolve: async () => answer(), missRefreshMinMs: 0 });
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    answer = () => {
      throw Object.assign(new Error('timeout'), { code: 'EAI_AGAIN' });
    };
    expect(await ipSeen('127.0.0.9', '203.0.113.7')).toBe('127.0.0.9'); // a lookup that fails
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    answer = () => {
      throw Object.assign(new Error('gone'), { code: 'ENOTFOUND' });
    };
    expect(await ipSeen('127.0.0.9', '203.0.113.7')).toBe('127.0.0.9');
    expect(await ipSeen('127.0.0.2', '203.0.113.7')).toBe('127.0.0.2');
  });

  it('mixes names with addresses and CIDRs', async () => {
    await startEcho('balancer, 127.0.0.6, 127.0.1.0/24', { resolve: async () => ['127.0.0.2'] });
    expect(await ipSeen('127.0.0.2', '203.0.113.1')).toBe('203.0.113.1');
    expect(await ipSeen('127.0.0.6', '203.0.113.2')).toBe('203.0.113.2');
    expect(await ipSeen('127.0.1.77', '203.0.113.3')).toBe('203.0.113.3');
    expect(await ipSeen('127.0.0.7', '203.0.113.4')).toBe('127.0.0.7');
  });
});

describe('TRUST_PROXY=localhost in the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { TRUST_PROXY: 'localhost', VALIDATION_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('records the forwarded address from the named proxy and the peer itself from any other', async () => {
    const license = await newLicense(t);
    const body = { licenseId: license.id, productId: license.productId, hwid: 'h' };
    await t.req('POST', '/licenses/validate', { body, headers: { 'x-forwarded-for': '203.0.113.9' }, localAddress: '127.0.0.1' });
    await t.req('POST', '/licenses/validate', { body, headers: { 'x-forwarded-for': '203.0.113.10' }, localAddress: '127.0.0.10' });
    await validate(t, body, '127.0.0.11');
    expect((await readLicense(t, license.id)).usedIps.sort()).toEqual(['127.0.0.10', '127.0.0.11', '203.0.113.9']);
  });
});
