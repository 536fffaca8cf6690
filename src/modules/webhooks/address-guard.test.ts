// The SSRF guard against every spelling the security review found passing (issue 29) and
// the ranges DECISIONS.md lists: refused when an endpoint is saved (400 naming url) and
// again at delivery, where a real receiver on loopback proves nothing reached it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { isPrivateAddress } from './address-guard.js';
import { newEvent } from '../events/events.js';
import { sendAttempt } from './send-attempt.js';

/** Host spellings (as written in a URL) that must never be a webhook target. */
const REFUSED_HOSTS = [
  '[::ffff:0:7f00:1]', // IPv4-translated 127.0.0.1
  '[::ffff:0:a00:1]', // IPv4-translated 10.0.0.1
  '[64:ff9b:1::7f00:1]', // local-use NAT64
  '[64:ff9b::7f00:1]', // well-known NAT64
  '[64:ff9b::808:808]', // NAT64 of a public address: still a translator, refused whole
  '[100::1]', // discard
  '[::ffff:127.0.0.1]', // IPv4-mapped, dotted
  '[::ffff:7f00:1]', // IPv4-mapped, hex
  '[::127.0.0.1]', // IPv4-compatible
  '[::1]',
  '[::]',
  '[fe80::1]',
  '[fd00::1]',
  '[ff02::1]', // multicast
  '[2001:db8::1]', // documentation
  '[3fff::1]', // documentation (RFC 9637)
  '[2001:2::1]', // benchmarking
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', // Teredo
  '[2002:7f00:1::1]', // 6to4 of 127.0.0.1
  '[4000::1]', // reserved (outside global unicast)
  '192.0.2.1', // documentation TEST-NET-1
  '198.51.100.7', // TEST-NET-2
  '203.0.113.9', // TEST-NET-3
  '198.18.0.1', // benchmarking
  '198.19.255.254',
  '100.64.0.1', // shared address space
  '100.127.255.254',
  '224.0.0.1', // multicast
  '239.255.255.250',
  '240.0.0.1', // reserved
  '255.255.255.255',
  '127.0.0.1',
  '0x7f.1', // 127.0.0.1 in a spelling the URL parser normalises
  '2130706433', // 127.0.0.1 as one number
  '10.0.0.1',
  '169.254.169.254',
  '192.0.0.8',
  '192.88.99.1', // deprecated 6to4 relay anycast
];

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const PUBLIC_ADDRESSES = ['8.8.8.8', '1.1.1.1', '100.128.0.1', '198.20.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '2a00:1450:4001::1'];

describe('address guard: which addresses are private', () => {
  it.each(REFUSED_HOSTS.filter((h) => !/^(0x|\d+$)/.test(h)))('%s is refused', (host) =>
    expect(isPrivateAddress(host.replace(/^\[(.*)\]$/, '$1'))).toBe(true),
  );
  it.each(PUBLIC_ADDRESSES)('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('address guard at delivery', () => {
  let server: Server;
  let port = 0;
  let called = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      called++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '::', resolve)); // dual stack: mapped addresses reach it
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses every spelling at delivery time, and the receiver is never called', async () => {
    const event = newEvent('customers.create', { id: 'c1' });
    for (const host of REFUSED_HOSTS) {
      const result = await sendAttempt({ url: `http://${host}:${port}/hook`, format: 'standard', secret: SECRET }, event, {
        timeoutMs: 1000,
        allowPrivateNetworks: false,
      });
      expect(result, host).toMatchObject({ delivered: false, status: null, body: expect.stringMatching(/private/) });
    }
    expect(called).toBe(0);
    // The mapped spelling does reach the loopback receiver when private networks are allowed:
    // the refusal above is the guard's doing, not an unreachable address.
    const allowed = await sendAttempt({ url: `http://[::ffff:7f00:1]:${port}/hook`, format: 'standard', secret: SECRET }, event, {
      timeoutMs: 2000,
      allowPrivateNetworks: true,
    });
    expect(allowed).toMatchObject({ delivered: true });
    expect(called).toBe(1);
  });
});

describe.each(DIALECTS)('address guard when an endpoint is saved (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('refuses every spelling with 400 naming url, and stores nothing', async () => {
    const before = (await t.admin('GET', '/webhook-endpoints')).json as unknown[];
    for (const host of REFUSED_HOSTS) {
      const res = await t.admin('POST', '/webhook-endpoints', { body: { url: `https://${host}/hook`, events: ['*'] } });
      expect(res.status, host).toBe(400);
      expect(res.json.error, host).toMatch(/^url /);
    }
    expect((await t.admin('GET', '/webhook-endpoints')).json).toEqual(before);
  });
});
