// npm run bench: throughput and latency of license validation against a bare node:http
// server, in one run on this machine. Every server runs in its own process; this
// process drives them with autocannon (BENCH_CONNECTIONS, default 50, for
// BENCH_DURATION seconds, default 5, after a 2 s warm-up), BENCH_ROUNDS (default 3)
// interleaved rounds, and reports each scenario's median. The service is the build, run as
// `npm start` runs it (its node flags), on a fresh SQLite file, or on a fresh PostgreSQL
// database with BENCH_DATABASE_URL (bench/database.ts).
import { generateKeyPairSync, sign } from 'node:crypto';
import autocannon from 'autocannon';
import { benchDatabase } from './database.js';
import { clearRules, RULE_COUNT, seedRules } from './leak-defence.js';
import { startServer, type Server } from './processes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const MARKETPLACE_SECRET = 'bench-marketplace-secret';
/** The service as `npm start` runs it (npm run bench builds first). */
const SERVICE_ENTRY = 'dist/server.js';

interface Scenario {
  name: string;
  /** Path on the server, POSTed with `body`. */
  path: string;
  body: string;
  contentType?: string;
  /** What one request must answer before the load starts (a sanity check). */
  expect: { status: number; body: string; header?: string };
}

interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function measure(server: Server, scenario: Scenario, connections = CONNECTIONS): Promise<Measurement> {
  const options = {
    url: server.url + scenario.path,
    method: 'POST',
    headers: { 'content-type': scenario.contentType ?? 'application/json' },
    body: scenario.body,
    connections,
  };
  const probe = await fetch(options.url, { method: 'POST', headers: options.headers, body: options.body });
  const text = await probe.text();
  if (scenario.expect.header && !probe.headers.get(scenario.expect.header)) throw new Error(`${scenario.name}: no ${scenario.expect.header} header`);
  if (probe.status !== scenario.expect.status || text !== scenario.expect.body) {
    throw new Error(`${scenario.name}: expected ${scenario.expect.status} ${scenario.expect.body}, got ${probe.status} ${text}`);
  }
  await autocannon({ ...options, duration: WARMUP });
  const result = await autocannon({ ...options, duration: DURATION });
  return {
    name: scenario.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * The scenario against several instances at once (the connections split between them, as
 * behind a proxy): the aggregate req/s, and the worst p50/p99 of the instances.
 */
async function measureSpread(servers: Server[], scenario: Scenario, name: string): Promise<Measurement> {
  const each = await Promise.all(servers.map((server) => measure(server, scenario, Math.ceil(CONNECTIONS / servers.length))));
  return {
    name,
    rps: each.reduce((sum, m) => sum + m.rps, 0),
    p50: Math.max(...each.map((m) => m.p50)),
    p99: Math.max(...each.map((m) => m.p99)),
    failures: each.reduce((sum, m) => sum + m.failures, 0),
  };
}

/** An authenticated JSON call to the service's admin API. */
async function api(server: Server, token: string | null, path: string, body: unknown): Promise<any> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

export interface Seed {
  server: Server;
  token: string;
  api(path: string, body: unknown): Promise<any>;
}

/** Licenses in the states the validation scenarios need, created through the API. */
async function validationScenarios(seed: Seed): Promise<Scenario[]> {
  const product = await seed.api('/products', {
    name: 'Bench product', productType: 'software', price: 1, requiresLicense: true, isSubscription: false,
  });
  const customer = await seed.api('/customers', { name: 'Bench customer', email: 'bench@example.com' });
  const license = (limits: object) => seed.api('/licenses', { productId: product.id, customerId: customer.id, ...limits });
  const validation = (licenseId: string, hwid: string, nonce?: string, receiptFormat?: 'batch') => JSON.stringify({ licenseId, productId: product.id, hwid, nonce, receiptFormat });

  // Bound: this process's IP (127.0.0.1) and the HWID were bound by a first validation.
  const bound = await license({ maxIps: 1, maxHwids: 1 });
  await seed.api('/licenses/validate', JSON.parse(validation(bound.id, 'HWID-BOUND')));
  // Policies: a product with a feature tier, grace days and a trial clock that the seeding
  // validation started; its bound validations should cost what plain bound ones do.
  const policyProduct = await seed.api('/products', {
    name: 'Bench policy product', productType: 'software', price: 1, requiresLicense: true, isSubscription: false,
    expiryBasis: 'firstValidation', validForDays: 30, graceDays: 3, features: { pro: true, seats: 5, tier: 'pro' },
  });
  const policy = await seed.api('/licenses', { productId: policyProduct.id, customerId: customer.id, maxIps: 1, maxHwids: 1, features: { seats: 10 } });
  const policyValidation = JSON.stringify({ licenseId: policy.id, productId: policyProduct.id, hwid: 'HWID-BOUND' });
  await seed.api('/licenses/validate', JSON.parse(policyValidation));
  // Full: the only HWID slot is taken, so every call fails at step 4 (HWID_LIMIT_REACHED).
  const full = await license({ maxIps: 1, maxHwids: 1 });
  await seed.api('/licenses/validate', JSON.parse(validation(full.id, 'HWID-TAKEN')));

  return [
    { name: BOUND_ROW, path: '/licenses/validate', body: validation(bound.id, 'HWID-BOUND'), expect: { status: 200, body: '{"valid":true}' } },
    // The same request with a nonce: the answer carries a signed Validation-Receipt (one Ed25519 signature).
    { name: SIGNED_ROW, path: '/licenses/validate', body: validation(bound.id, 'HWID-BOUND', 'bench-nonce-0123456789abcdef'), expect: { status: 200, body: '{"valid":true}', header: 'validation-receipt' } },
    // The same with "receiptFormat": "batch": one signature per tree of answers committed together (signed in a worker).
    {
      name: SIGNED_BATCH_ROW,
      path: '/licenses/validate',
      body: validation(bound.id, 'HWID-BOUND', 'bench-nonce-0123456789abcdef', 'batch'),
      expect: { status: 200, body: '{"valid":true}', header: 'validation-receipt' },
    },
    { name: POLICY_ROW, path: '/licenses/validate', body: policyValidation, expect: { status: 200, body: '{"valid":true}' } },
    { name: 'validate: HWID slot full (false)', path: '/licenses/validate', body: validation(full.id, 'HWID-OTHER'), expect: { status: 200, body: '{"valid":false}' } },
    // For reference: the same route when nothing is written (no attempt to record).
    { name: 'validate: unknown license (no write)', path: '/licenses/validate', body: validation('ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', 'HWID-BOUND'), expect: { status: 200, body: '{"valid":false}' } },
  ];
}

/** A marketplace buyer who already holds a license: every call reuses it (plain-text key). */
async function webhookScenarios(seed: Seed): Promise<Scenario[]> {
  await seed.api('/products', {
    name: 'Bench marketplace product', productType: 'software', price: 5, requiresLicense: true, isSubscription: false,
    marketplaceResourceId: 'bench-resource',
  });
  const body = new URLSearchParams({
    secret: MARKETPLACE_SECRET, user_id: '424242', resource_id: 'bench-resource', marketplace: 'true', version_number: '1.0.0',
  }).toString();
  const contentType = 'application/x-www-form-urlencoded';
  const first = await fetch(`${seed.server.url}/marketplace`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const key = await first.text();
  if (first.status !== 200) throw new Error(`webhook seed: ${first.status} ${key}`);
  return [{ name: 'webhook: reuse a license', path: '/marketplace', body, contentType, expect: { status: 200, body: key } }];
}

const REFERENCE_BODY = JSON.stringify({ licenseId: 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', productId: 'product', hwid: 'HWID-BOUND' });

const pad = (value: string | number, width: number) => String(value).padStart(width);

const BOUND_ROW = 'validate: IP and HWID already bound';
const SIGNED_ROW = 'validate: bound, signed (nonce)';
const SIGNED_BATCH_ROW = 'validate: bound, signed (batch)';
const SUBSCRIBED_ROW = 'validate: bound, 1 endpoint subscribed';
const POLICY_ROW = 'validate: bound, features+grace+trial';
const LEAK_ROW = 'validate: bound, 10k rules + sharing alert';

/** A bound license of a product with a sharing alert: the leak-defence row validates it once the rules are in. */
async function leakDefenceScenario(seed: Seed): Promise<Scenario> {
  const product = await seed.api('/products', {
    name: 'Bench shared product', productType: 'software', price: 1, requiresLicense: true, isSubscription: false,
    sharingAlert: { distinctIps: 50, distinctHwids: 50, windowHours: 24 },
  });
  const customer = await seed.api('/customers', { name: 'Bench sharer', email: 'sharer@example.com' });
  const license = await seed.api('/licenses', { productId: product.id, customerId: customer.id, maxIps: 1, maxHwids: 1 });
  const body = JSON.stringify({ licenseId: license.id, productId: product.id, hwid: 'HWID-BOUND' });
  await seed.api('/licenses/validate', JSON.parse(body));
  return { name: LEAK_ROW, path: '/licenses/validate', body, expect: { status: 200, body: '{"valid":true}' } };
}

/** CPU time of one receipt signature (node:crypto Ed25519, synchronous on the event loop). */
function signatureMicros(): number {
  const { privateKey } = generateKeyPairSync('ed25519');
  const input = Buffer.from(`${'h'.repeat(80)}.${'p'.repeat(240)}`);
  for (let i = 0; i < 500; i += 1) sign(null, input, privateKey);
  const count = 5000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) sign(null, input, privateKey);
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One row per scenario: the median of its rounds (this machine's neighbours make single runs swing). */
function summarise(runs: Measurement[][]): Measurement[] {
  return runs[0]!.map((first, i) => {
    const rounds = runs.map((round) => round[i]!);
    return {
      name: first.name,
      rps: median(rounds.map((r) => r.rps)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      failures: rounds.reduce((sum, r) => sum + r.failures, 0),
    };
  });
}

function report(rows: Measurement[], databaseLabel: string): void {
  const bare = rows[0]!;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per run (after ${WARMUP} s warm-up), median of ${ROUNDS} interleaved rounds`);
  console.log(`the service on ${databaseLabel}\n`);
  console.log(`${'scenario'.padEnd(40)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}${pad('failed', 8)}`);
  for (const row of rows) {
    const ratio = `${Math.round((row.rps / bare.rps) * 100)}%`;
    console.log(`${row.name.padEnd(40)}${pad(Math.round(row.rps), 9)}${pad(row.p50, 9)}${pad(row.p99, 9)}${pad(ratio, 9)}${pad(row.failures, 8)}`);
  }
  const bound = rows.find((row) => row.name === BOUND_ROW);
  const signed = rows.find((row) => row.name === SIGNED_ROW);
  const leak = rows.find((row) => row.name === LEAK_ROW);
  if (bound && leak) {
    const share = leak.rps / bound.rps;
    console.log(`\nbound with ${RULE_COUNT} blocklist rules and a sharing alert vs bound with neither: ${Math.round(share * 100)}% of the req/s (target >= 90%: ${share >= 0.9 ? 'met' : 'NOT met'})`);
  }
  if (bound && signed) {
    console.log(`\nbound, signed vs bound, unsigned: ${Math.round((signed.rps / bound.rps) * 100)}% of the req/s`);
    console.log(`one Ed25519 receipt signature: ${signatureMicros().toFixed(1)} µs of event-loop time`);
  }
  const batch = rows.find((row) => row.name === SIGNED_BATCH_ROW);
  if (bound && batch) {
    const share = batch.rps / bound.rps;
    const p99 = batch.p99 - bound.p99;
    const met = share >= 0.75 && p99 <= 2;
    console.log(`bound, signed (batch) vs bound, unsigned: ${Math.round(share * 100)}% of the req/s, p99 ${p99 >= 0 ? '+' : ''}${p99} ms (target >= 75%, p99 within 2 ms: ${met ? 'met' : 'NOT met'})`);
  }
  const policy = rows.find((row) => row.name === POLICY_ROW);
  if (bound && policy) console.log(`bound with policies vs plain bound: ${Math.round((policy.rps / bound.rps) * 100)}% of the req/s (target >= 90%)`);
  const target = rows.find((row) => row.name.startsWith(BOUND_ROW));
  if (target) {
    const ok = target.rps >= 0.6 * bare.rps && target.p99 < 10;
    console.log(`\ntarget (bound validations >= 60% of bare, p99 < 10 ms): ${ok ? 'met' : 'NOT met'}`);
  }
}

async function main(): Promise<void> {
  const database = await benchDatabase();
  const bare = await startServer('bench/bare-server.ts', {});
  const fastify = await startServer('bench/fastify-server.ts', {}, '/healthz');
  const serviceEnv = {
    DATABASE_URL: database.url,
    VALIDATION_RATE_LIMIT: '1000000000',
    WEBHOOK_RATE_LIMIT: '1000000000',
    MARKETPLACE_SECRET,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', // the subscribed row's receiver is the bare server on 127.0.0.1
    JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123',
    MASTER_ADMIN_USERNAME: ADMIN.username,
    MASTER_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
  const service = await startServer(SERVICE_ENTRY, serviceEnv, '/healthz');
  // On PostgreSQL, a second instance on the same database: the several-instances shape.
  const second = database.label === 'SQLite' ? null : await startServer(SERVICE_ENTRY, serviceEnv, '/healthz');
  try {
    const { token } = await api(service, null, '/auth/login', ADMIN);
    const seed: Seed = { server: service, token, api: (path, body) => api(service, token, path, body) };
    const scenarios: [Server, Scenario][] = [
      [bare, { name: 'bare node:http', path: '/', body: '{}', expect: { status: 200, body: '{"valid":true}' } }],
      [fastify, { name: 'Fastify, same schemas, no database', path: '/', body: REFERENCE_BODY, expect: { status: 200, body: '{"valid":true}' } }],
      ...[...(await validationScenarios(seed)), ...(await webhookScenarios(seed))].map((s): [Server, Scenario] => [service, s]),
    ];
    // All servers stay up (an idle one costs nothing) and the rounds interleave, so a
    // slow moment of the machine hits every scenario alike instead of one.
    const bound = scenarios.find(([, s]) => s.name === BOUND_ROW)![1];
    const leak = await leakDefenceScenario(seed);
    const runs: Measurement[][] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const results: Measurement[] = [];
      for (const [server, scenario] of scenarios) results.push(await measure(server, scenario));
      if (second) results.push(await measureSpread([service, second], bound, 'validate: bound, 2 instances (sum)'));
      runs.push(results);
    }
    // Then, as they change what every validation consults: 10,000 blocklist rules (none
    // matching) in every instance's index, and the license of a product with a sharing
    // alert, bound; measured once per round, compared with the bound row above (neither).
    await seedRules(database.url);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // each instance polls the rules' version every 100 ms, then reloads 10,000 rows
    for (const round of runs) round.push(await measure(service, leak));
    await clearRules(database.url);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Last, as it changes the service's state: the bound row again with an endpoint
    // subscribed to validation events (each validation queues one, the worker delivers it
    // to the bare server meanwhile): the cost of events on the hot path.
    await seed.api('/webhook-endpoints', { url: `${bare.url}/hook`, events: ['licenses.validate.succeeded', 'licenses.validate.failed'] });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the instance's subscription set refreshes every second
    for (const round of runs) round.push(await measure(service, { ...bound, name: SUBSCRIBED_ROW }));
    report(summarise(runs), database.label);
  } finally {
    await Promise.all([bare.stop(), fastify.stop(), service.stop(), second?.stop()]);
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
