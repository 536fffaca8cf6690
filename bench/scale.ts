// npm run bench:scale: how the cost of requests grows with the data. For each size in
// BENCH_SIZES (default 1000,10000,100000 licenses) it fills a fresh database in bulk
// (bench/scale-fill.ts), starts the service on it in its own process and measures: a first
// and a last page of GET /licenses?limit=100, one unpaged GET /licenses (time, bytes, the
// server's RSS growth), GET /licenses/stats, bound validations at BENCH_CONNECTIONS (50)
// for BENCH_DURATION seconds (5), and validations at 500/s (autocannon) while one unpaged
// GET /licenses is sent (BENCH_PARTS=unpaged: the reads only). SQLite, or PostgreSQL with
// BENCH_DATABASE_URL.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createDb, migrateToLatest } from '../src/db/database.js';
import { benchDatabase } from './database.js';
import { startServer, type Server } from './processes.js';
import { fill } from './scale-fill.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
/** BENCH_PARTS=unpaged: only the reads (pages, stats, one unpaged list), no validation load. */
const ONLY_UNPAGED = process.env.BENCH_PARTS === 'unpaged';
/** The service as `npm start` runs it (npm run build first): its memory is what an operator sees, without tsx's compiler. */
const SERVER_ENTRY = 'dist/server.js';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Row {
  size: number;
  pageFirst: number;
  pageLast: number;
  unpaged: { ms: number; mb: number; rssGrowth: number; rssPeak: number };
  stats: number;
  bound: { rps: number; p99: number };
  during: { p50: number; p99: number; count: number; failed: number };
}

async function call(server: Server, token: string | null, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Median time of `times` GETs (after one warm-up), in ms. */
async function timeGet(server: Server, token: string, path: string, times = 5): Promise<number> {
  const once = async () => {
    const start = performance.now();
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return performance.now() - start;
  };
  await once();
  const runs: number[] = [];
  for (let i = 0; i < times; i += 1) runs.push(await once());
  return median(runs);
}

/** One unpaged GET /licenses, its body counted as it arrives (not kept), the server's RSS sampled meanwhile. */
async function unpaged(server: Server, token: string): Promise<Row['unpaged']> {
  const before = rssMb(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid));
  }, 20);
  const start = performance.now();
  const res = await fetch(`${server.url}/licenses`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(server.pid));
  return { ms, mb: bytes / 1e6, rssGrowth: peak - before, rssPeak: peak };
}

/** GET through curl in its own process, the body discarded. */
function curlGet(server: Server, token: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', ['-sf', '-o', '/dev/null', '-H', `authorization: Bearer ${token}`, server.url + path], { stdio: 'ignore' });
    curl.on('error', reject);
    curl.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl ${path} exited with ${code}`))));
  });
}

/**
 * Validations at about `perSecond` (autocannon, 10 connections) for as long as `work`
 * runs, after 300 ms without it: their latencies and failures.
 */
function validationsDuring(server: Server, body: string, perSecond: number, work: () => Promise<unknown>): Promise<Row['during']> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${server.url}/licenses/validate`, method: 'POST', headers: { 'content-type': 'application/json' }, body,
        connections: 10, overallRate: perSecond, duration: 3600,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          p50: result.latency.p50, p99: result.latency.p99, count: result.requests.total,
          failed: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    setTimeout(() => {
      const workStart = performance.now();
      work().then(
        () => {
          console.error(`list read by curl in ${Math.round(performance.now() - workStart)} ms while validating`);
          instance.stop();
        },
        (workErr: unknown) => {
          instance.stop();
          reject(workErr);
        },
      );
    }, 300);
  });
}

async function measureSize(size: number): Promise<Row> {
  const database = await benchDatabase();
  const fillStart = performance.now();
  const handle = createDb(database.url);
  await migrateToLatest(handle.db);
  await fill(handle.db, handle.dialect, size);
  await handle.db.destroy();
  console.error(`${size}: filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
  const server = await startServer(
    SERVER_ENTRY,
    {
      DATABASE_URL: database.url,
      VALIDATION_RATE_LIMIT: '1000000000',
      JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123',
      MASTER_ADMIN_USERNAME: ADMIN.username,
      MASTER_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    '/healthz',
  );
  try {
    const { token } = await call(server, null, 'POST', '/auth/login', ADMIN);
    const license = await call(server, token, 'POST', '/licenses', { productId: 'scale-product', customerId: 'scale-customer-00000000', maxIps: 1, maxHwids: 1 });
    const body = JSON.stringify({ licenseId: license.id, productId: 'scale-product', hwid: 'HWID-BOUND' });
    await call(server, null, 'POST', '/licenses/validate', JSON.parse(body));

    const total = size + 1;
    const pageFirst = await timeGet(server, token, '/licenses?limit=100');
    const pageLast = await timeGet(server, token, `/licenses?limit=100&offset=${total - 100}`);
    const stats = await timeGet(server, token, '/licenses/stats');
    const list = await unpaged(server, token);
    if (ONLY_UNPAGED) {
      return { size, pageFirst, pageLast, unpaged: list, stats, bound: { rps: 0, p99: 0 }, during: { p50: 0, p99: 0, count: 0, failed: 0 } };
    }
    const options = { url: `${server.url}/licenses/validate`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS };
    await autocannon({ ...options, duration: 2 });
    const result = await autocannon({ ...options, duration: DURATION });
    // The list is read by curl, so that this process's event loop only drives the validations.
    const during = await validationsDuring(server, body, 500, () => curlGet(server, token, '/licenses'));
    return { size, pageFirst, pageLast, unpaged: list, stats, bound: { rps: result.requests.average, p99: result.latency.p99 }, during };
  } finally {
    await server.stop();
    await database.drop();
  }
}

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

function report(rows: Row[], label: string): void {
  const cell = (f: (r: Row) => string) => rows.map(f).join(' | ');
  const sizes = rows.map((r) => (r.size >= 1000 ? `${r.size / 1000}k` : String(r.size))).join(' | ');
  console.log(`\nThe service on ${label}; ${CONNECTIONS} connections for ${DURATION} s for bound validations.\n`);
  console.log(`| Request | ${sizes} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  console.log(`| \`GET /licenses?limit=100\` (first / last page) | ${cell((r) => `${ms(r.pageFirst)} / ${ms(r.pageLast)}`)} |`);
  console.log(
    `| \`GET /licenses\` unpaged (time, body, server RSS growth / peak) | ${cell((r) => `${ms(r.unpaged.ms)}, ${r.unpaged.mb.toFixed(1)} MB, +${Math.round(r.unpaged.rssGrowth)} / ${Math.round(r.unpaged.rssPeak)} MB`)} |`,
  );
  console.log(`| \`GET /licenses/stats\` | ${cell((r) => ms(r.stats))} |`);
  console.log(`| bound validations, ${CONNECTIONS} connections | ${cell((r) => `${(r.bound.rps / 1000).toFixed(1)}k/s, p99 ${r.bound.p99} ms`)} |`);
  console.log(
    `| validations (500/s, 10 connections) while one unpaged \`GET /licenses\` runs | ${cell((r) => `p50 ${ms(r.during.p50)}, p99 ${ms(r.during.p99)}${r.during.failed ? `, ${r.during.failed} failed` : ''}`)} |`,
  );
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const size of SIZES) rows.push(await measureSize(size));
  report(rows, process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
