// npm run bench:releases: the server's memory while it receives one release file and while it
// sends it to many licenses at once (issue 36: 10 parallel downloads of a 30 MB file must grow
// the server's RSS by less than 100 MB). Starts the built service (as `npm start` runs it,
// plus bench/memory-probe.mjs) on a fresh SQLite database and, with BENCH_PG (or
// BENCH_DATABASE_URL), on a fresh PostgreSQL database too. On each it uploads a
// BENCH_RELEASE_MB (30) MB file, then runs BENCH_PARALLEL (10) downloads at once, reading each
// to the end as fast as it can, or at BENCH_READ_MBPS MB/s each (a slow client; 0: as fast as
// possible). For each step: the server's RSS at rest before it (after one warm-up run of the
// same step), its peak while the step runs (read from /proc every 10 ms) and the growth, with
// the probe's peaks of Buffers (arrayBuffers) and of the JavaScript heap above their own
// values at rest. BENCH_TRACE_GC=<dir> keeps each server's --trace-gc output and memory
// samples there; BENCH_NODE_FLAGS adds node flags after those of `npm start`.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPostgresServer, postgresDatabase, sqliteDatabase, type BenchDatabase } from './database.js';
import { startServer, type Server } from './processes.js';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_RELEASE_MB ?? 30);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 10);
const READ_MBPS = Number(process.env.BENCH_READ_MBPS ?? 0);
const TRACE_GC = process.env.BENCH_TRACE_GC;
/** Node flags after those of `npm start` (a later V8 flag wins), to compare settings. */
const EXTRA_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
/** The issue's bound on the growth of the server's RSS. */
const BOUND_MB = 100;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const mb = (bytes: number) => Number((bytes / MB).toFixed(1));

interface ProbeSample {
  at: number;
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** The server's memory: RSS from /proc, and what the probe inside it wrote. */
class Memory {
  constructor(
    private readonly pid: number,
    private readonly samples: string,
  ) {}

  private probe(from: number, to = Infinity): ProbeSample[] {
    const lines = readFileSync(this.samples, 'utf8').split('\n').filter(Boolean);
    return lines.map((line) => JSON.parse(line) as ProbeSample).filter((s) => s.at >= from && s.at <= to);
  }

  /** Runs `step` while reading RSS every 10 ms; the figures are relative to the last second at rest before it. */
  async during(step: () => Promise<void>) {
    await sleep(1000);
    const restFrom = Date.now() - 500;
    const before = rssOf(this.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(this.pid))), 10);
    const started = Date.now();
    try {
      await step();
    } finally {
      clearInterval(sampler);
    }
    const ended = Date.now();
    peak = Math.max(peak, rssOf(this.pid));
    await sleep(50); // the probe's last samples of the step
    const rest = this.probe(restFrom, started);
    const run = this.probe(started, ended);
    const restOf = (key: keyof ProbeSample) => (rest.length > 0 ? Math.min(...rest.map((s) => s[key])) : 0);
    const growthOf = (key: keyof ProbeSample) => (run.length > 0 ? Math.max(...run.map((s) => s[key])) - restOf(key) : 0);
    return {
      seconds: Number(((ended - started) / 1000).toFixed(2)),
      rssBeforeMb: mb(before),
      rssPeakMb: mb(peak),
      rssGrowthMb: mb(peak - before),
      arrayBuffersGrowthMb: mb(growthOf('arrayBuffers')),
      heapUsedGrowthMb: mb(growthOf('heapUsed')),
      probeSamples: run.length,
    };
  }
}

function request(server: Server, method: string, path: string, token: string | null, body?: Buffer | object, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
  }).then(async (res) => {
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  });
}

/** One licensed download read to the end (at READ_MBPS when set), answering the sha256 of what came. */
function download(server: Server, body: object): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method: 'POST', path: '/releases/download', headers: { 'content-type': 'application/json' } }, async (res) => {
      try {
        if (res.statusCode !== 200) throw new Error(`download: ${res.statusCode}`);
        const hash = createHash('sha256');
        const started = Date.now();
        let bytes = 0;
        for await (const chunk of res as AsyncIterable<Buffer>) {
          hash.update(chunk);
          bytes += chunk.length;
          // A slow client: wait until this many bytes are due at READ_MBPS.
          const due = started + (bytes / (READ_MBPS * MB)) * 1000 - Date.now();
          if (READ_MBPS > 0 && due > 0) await sleep(due);
        }
        resolve(hash.digest('hex'));
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function measure(database: BenchDatabase, traceDir: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-bench-memory-'));
  const samples = join(traceDir ?? dir, `memory-${database.label}.jsonl`);
  const gcLog = traceDir ? createWriteStream(join(traceDir, `gc-${database.label}.log`)) : undefined;
  const server = await startServer(
    'dist/server.js',
    {
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      MASTER_ADMIN_USERNAME: ADMIN.username,
      MASTER_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      RELEASE_MAX_BYTES: String((SIZE_MB + 1) * MB),
      VALIDATION_RATE_LIMIT: '100000',
      BENCH_MEMORY_SAMPLES: samples,
    },
    '/healthz',
    { nodeFlags: ['--import', new URL('./memory-probe.mjs', import.meta.url).pathname, ...(gcLog ? ['--trace-gc'] : []), ...EXTRA_FLAGS], stdout: gcLog },
  );
  try {
    const memory = new Memory(server.pid, samples);
    const call = (method: string, path: string, body?: Buffer | object, headers?: Record<string, string>) => request(server, method, path, token, body, headers);
    let token: string | null = null;
    token = ((await (await call('POST', '/auth/login', ADMIN)).json()) as { token: string }).token;
    const product = (await (await call('POST', '/products', { name: 'Bench', productType: 'plugin', price: 1, requiresLicense: true, isSubscription: false })).json()) as { id: string };
    const customer = (await (await call('POST', '/customers', { name: 'Bench', email: 'bench@example.com' })).json()) as { id: string };
    const license = (await (await call('POST', '/licenses', { productId: product.id, customerId: customer.id })).json()) as { id: string };
    const file = randomBytes(SIZE_MB * MB);
    const expected = createHash('sha256').update(file).digest('hex');
    const upload = async (version: string) => {
      const release = (await (await call('POST', `/products/${product.id}/releases`, { version })).json()) as { id: string };
      await call('PUT', `/releases/${release.id}/file`, file, { 'content-type': 'application/octet-stream', 'x-file-name': 'bench.bin' });
      return release;
    };
    // Each step runs once unmeasured first: the code is warm, and the server at rest is as it is between uploads.
    await call('DELETE', `/releases/${(await upload('0.0.1')).id}`);
    let release: { id: string } | undefined;
    const uploadRow = await memory.during(async () => void (release = await upload('1.0.0')));
    await call('POST', `/releases/${release!.id}/publish`);
    const body = { licenseId: license.id, productId: product.id, hwid: 'bench' };
    if ((await download(server, body)) !== expected) throw new Error('the download differs from the uploaded file');
    const downloadRow = await memory.during(async () => {
      const sums = await Promise.all(Array.from({ length: PARALLEL }, () => download(server, body)));
      if (sums.some((s) => s !== expected)) throw new Error('a download differs from the uploaded file');
    });
    return [
      { database: database.label, step: `upload ${SIZE_MB} MB`, ...uploadRow },
      { database: database.label, step: `${PARALLEL} downloads of ${SIZE_MB} MB${READ_MBPS > 0 ? ` at ${READ_MBPS} MB/s each` : ''}`, ...downloadRow },
    ];
  } finally {
    await server.stop();
    gcLog?.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const pgServer = benchPostgresServer();
  const rows = [];
  for (const open of [async () => sqliteDatabase(), ...(pgServer ? [() => postgresDatabase(pgServer)] : [])]) {
    const database = await open();
    try {
      rows.push(...(await measure(database, TRACE_GC)));
    } finally {
      await database.drop();
    }
  }
  for (const row of rows) console.log(JSON.stringify({ ...row, underBound: row.rssGrowthMb < BOUND_MB }));
  const over = rows.filter((row) => row.rssGrowthMb >= BOUND_MB);
  console.log(
    over.length === 0
      ? `RSS growth under ${BOUND_MB} MB in every step (largest ${Math.max(...rows.map((r) => r.rssGrowthMb))} MB)`
      : `RSS growth NOT under ${BOUND_MB} MB: ${over.map((r) => `${r.database} ${r.step} +${r.rssGrowthMb} MB`).join(', ')}`,
  );
  if (over.length > 0) process.exitCode = 1;
}

await main();
