// One attempt against receivers that misbehave (DECISIONS.md: 10 s, no redirects): each
// ends within the deadline, reads at most 2 KiB, and is not a delivery unless a 2xx came
// back whole. Real sockets; the deadline is shortened so the suite stays quick.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from './address-guard.js';
import { newEvent } from '../events/events.js';
import { RESPONSE_EXCERPT_BYTES, sendAttempt } from './send-attempt.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const event = newEvent('customers.create', { id: 'c1', name: 'Ada' });
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const send = (url: string, timeoutMs = 1000, allowPrivateNetworks = true) =>
  sendAttempt({ url, format: 'standard', secret: SECRET }, event, { timeoutMs, allowPrivateNetworks });

describe('one delivery attempt', () => {
  it('is delivered by a 2xx; the body is the event and the signature verifies', async () => {
    let seen: { headers: Record<string, string>; body: string } | null = null;
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { headers: req.headers as Record<string, string>, body };
        res.writeHead(202).end('thanks');
      });
    });
    expect(await send(url)).toMatchObject({ delivered: true, status: 202, body: 'thanks' });
    expect(seen!.body).toBe(event.body);
    expect(new Webhook(SECRET).verify(seen!.body, seen!.headers)).toMatchObject({ type: 'customers.create', data: { id: 'c1' } });
  });

  it('gives up on a receiver that never answers at the deadline', async () => {
    const url = await serve(() => undefined);
    const result = await send(url, 500);
    expect(result).toMatchObject({ delivered: false, status: null, body: 'no answer within 0.5 s' });
    expect(result.durationMs).toBeGreaterThanOrEqual(450);
    expect(result.durationMs).toBeLessThan(3000);
  });

  it('does not follow a redirect (3xx is a failure) and never calls the target', async () => {
    let targetCalled = false;
    const target = await serve((_req, res) => {
      targetCalled = true;
      res.end();
    });
    const url = await serve((_req, res) => res.writeHead(307, { location: target }).end());
    expect(await send(url)).toMatchObject({ delivered: false, status: 307 });
    expect(targetCalled).toBe(false);
  });

  it('reads 2 KiB of a 50 MB answer and drops the rest: memory stays flat', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const url = await serve((_req, res) => {
      res.writeHead(200);
      let sent = 0;
      const more = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    const result = await send(url, 5000);
    expect(result).toMatchObject({ delivered: true, status: 200 });
    expect(result.body).toHaveLength(RESPONSE_EXCERPT_BYTES);
    expect(process.memoryUsage().rss - before).toBeLessThan(20 * 1024 * 1024);
  });

  it('an answer cut off mid-body is not a delivery', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const result = await send(url);
    expect(result).toMatchObject({ delivered: false, status: 200 });
    expect(result.body).toMatch(/^answer cut off: partial/);
  });

  it('a receiver that trickles its answer is cut at the deadline', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const result = await send(url, 600);
    expect(result.delivered).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a connection refused is a failure naming why', async () => {
    const url = await serve(() => undefined);
    const [server] = servers.splice(0);
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve)); // no longer listening
    expect(await send(url)).toMatchObject({ delivered: false, status: null, body: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('refuses private targets at delivery unless allowed: literal addresses and names that resolve to them', async () => {
    let called = 0;
    const url = await serve((_req, res) => {
      called++;
      res.end();
    });
    expect(await send(url, 1000, false)).toMatchObject({ delivered: false, status: null, body: expect.stringMatching(/private/) });
    const byName = url.replace('127.0.0.1', 'localhost');
    expect(await send(byName, 1000, false)).toMatchObject({ delivered: false, status: null, body: expect.stringMatching(/private/) });
    expect(called).toBe(0);
    expect(await send(url, 1000, true)).toMatchObject({ delivered: true });
  });
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '224.0.0.1', 'not-an-ip',
    '::7f00:1', '::a00:1', '2002:7f00:1::', '2002:a9fe:a9fe::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ])('%s is refused', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );
});
