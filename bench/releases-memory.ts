// npm run bench:releases: the server's memory while it sends one release file to many
// licenses at once. Starts the built service (as `npm start` runs it) on a fresh database,
// uploads a BENCH_RELEASE_MB (30) MB file, then runs BENCH_PARALLEL (10) downloads at once,
// reading each to the end, and reports the server's RSS before, its peak while they run
// (sampled every 20 ms from /proc) and the growth. The bound: under 100 MB.
// SQLite, or PostgreSQL with BENCH_DATABASE_URL.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { benchDatabase } from './database.js';
import { startServer } from './processes.js';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_RELEASE_MB ?? 30);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 10);
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main(): Promise<void> {
  const database = await benchDatabase();
  const server = await startServer('dist/server.js', {
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MASTER_ADMIN_USERNAME: ADMIN.username,
    MASTER_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    RELEASE_MAX_BYTES: String((SIZE_MB + 1) * MB),
    VALIDATION_RATE_LIMIT: '100000',
  }, '/healthz');
  try {
    const call = async (method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const token = ((await (await call('POST', '/auth/login', null, ADMIN)).json()) as { token: string }).token;
    const product = (await (await call('POST', '/products', token, { name: 'Bench', productType: 'plugin', price: 1, requiresLicense: true, isSubscription: false })).json()) as { id: string };
    const customer = (await (await call('POST', '/customers', token, { name: 'Bench', email: 'bench@example.com' })).json()) as { id: string };
    const license = (await (await call('POST', '/licenses', token, { productId: product.id, customerId: customer.id })).json()) as { id: string };
    const release = (await (await call('POST', `/products/${product.id}/releases`, token, { version: '1.0.0' })).json()) as { id: string };
    const file = randomBytes(SIZE_MB * MB);
    const expected = createHash('sha256').update(file).digest('hex');
    await call('PUT', `/releases/${release.id}/file`, token, file, { 'content-type': 'application/octet-stream', 'x-file-name': 'bench.bin' });
    await call('POST', `/releases/${release.id}/publish`, token);
    // One download first: the code paths are warm, the baseline is the server at rest after it.
    const warm = await call('POST', '/releases/download', null, { licenseId: license.id, productId: product.id, hwid: 'bench' });
    await warm.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 20);
    const started = performance.now();
    const sums = await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const res = await call('POST', '/releases/download', null, { licenseId: license.id, productId: product.id, hwid: 'bench' });
        const hash = createHash('sha256');
        for await (const chunk of res.body!) hash.update(chunk);
        return hash.digest('hex');
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (sums.some((s) => s !== expected)) throw new Error('a download differs from the uploaded file');
    const row = {
      database: database.label,
      fileMb: SIZE_MB,
      parallel: PARALLEL,
      seconds: Number(seconds.toFixed(2)),
      rssBeforeMb: Number(before.toFixed(1)),
      rssPeakMb: Number(peak.toFixed(1)),
      rssGrowthMb: Number((peak - before).toFixed(1)),
    };
    console.log(JSON.stringify(row));
  } finally {
    await server.stop();
    await database.drop();
  }
}

await main();
