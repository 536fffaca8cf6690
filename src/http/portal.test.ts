// Serving the portal build: redirects, deep links, assets, a missing build, OpenAPI.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPortal } from './portal.js';

const INDEX = '<!doctype html><title>portal</title>';

async function appServing(root: string, logs: string[] = []): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => void logs.push(line) } },
  });
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } });
  app.get('/api-route', async () => ({ ok: true }));
  await registerPortal(app, root);
  await app.ready();
  return app;
}

describe('registerPortal', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), INDEX);
    writeFileSync(join(root, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    app = await appServing(root);
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('redirects / and /portal to /portal/', async () => {
    for (const url of ['/', '/portal']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/portal/');
    }
  });

  it('serves index.html at /portal/ and for deep links, never cached', async () => {
    for (const url of ['/portal/', '/portal/customers/0190abcd', '/portal/licenses/ABCDE-FGHJK?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves hashed assets as immutable and answers a missing asset with a JSON 404', async () => {
    const asset = await app.inject({ url: '/portal/assets/app-1a2b3c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await app.inject({ url: '/portal/assets/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Route GET /portal/assets/missing.js not found' });
  });

  it('does not answer other methods with the page', async () => {
    const res = await app.inject({ method: 'POST', url: '/portal/customers' });
    expect(res.statusCode).toBe(404);
  });

  it('keeps its routes out of the OpenAPI document', () => {
    const paths = Object.keys((app.swagger() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(['/api-route']);
  });

  it('without a build, warns and serves nothing', async () => {
    const logs: string[] = [];
    const empty = mkdtempSync(join(tmpdir(), 'portal-missing-'));
    const bare = await appServing(empty, logs);
    expect((await bare.inject({ url: '/' })).statusCode).toBe(404);
    expect((await bare.inject({ url: '/portal/' })).statusCode).toBe(404);
    expect(logs.join('')).toContain('portal build not found');
    await bare.close();
    rmSync(empty, { recursive: true, force: true });
  });
});
