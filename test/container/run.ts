// npm run test:container: the image and the compose stack, tried as an operator would,
// with docker or podman (whichever works here; CONTAINER_ENGINE=docker|podman to choose).
//  1. Image: builds it (no compiler in any stage), refuses to start on an example secret,
//     runs it on SQLite with a named volume, signs in with the printed password, validates
//     a license, stops it with SIGTERM (node is PID 1: exit 0 within 10 s); a second
//     container on the volume prints no password and keeps the data.
//  2. Stack (compose.yaml), its .env made by deploy/make-env.sh: compose refuses to start
//     with a required secret empty; up; validations through the balancer land on both
//     instances and record the caller's address; a forged X-Forwarded-For is believed
//     neither through the balancer nor sent from the host straight to an instance; settings
//     given only in .env reach the instances (a signed Polymart ping answers 200, the
//     validation limit); the balancer's log names no license key; after `stop app1`, 100
//     validations answer with p99 under 1 s and no 5xx; app1 back (the balancer follows its
//     new address); app1 killed, validations go on; down + up keeps the data; down -v.
//     "Ready" is each instance's own /readyz, asked inside it.
// Only 127.0.0.1 ports. Everything it creates carries a random name and is removed.
import { execFile, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request, type RequestOptions, type TestResponse } from '../helpers/http.js';
import { until } from '../helpers/until.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const RUN = randomBytes(3).toString('hex');
const IMAGE = `licensing-service:test-${RUN}`;
const STARTED = Date.now();

// ---- small tools --------------------------------------------------------------------

function say(message: string): void {
  console.log(`[${((Date.now() - STARTED) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`FAILED: ${message}`);
}

/** Runs a command; throws with its output when it fails (unless allowFailure). */
function run(command: string, args: string[], options: { allowFailure?: boolean; env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      if (code !== 0 && !options.allowFailure) {
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ code, stdout, stderr });
    });
  });
}

/** Waits for a container's state: a read that fails (a service still starting) means "not yet". */
const untilUp = <T>(what: string, read: () => Promise<T>, timeoutMs: number) =>
  until(what, read, Boolean, { timeoutMs, everyMs: 500, retryOn: () => true }) as Promise<NonNullable<T>>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const secret = () => randomBytes(24).toString('base64url');

// ---- the engine ---------------------------------------------------------------------

interface Engine {
  name: 'docker' | 'podman';
  buildArgs: string[];
  compose: string[];
}

function works(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

async function findEngine(): Promise<Engine> {
  const wanted = process.env.CONTAINER_ENGINE;
  if (wanted !== 'podman' && works('docker', ['info'])) {
    const compose = works('docker', ['compose', 'version']) ? ['docker', 'compose'] : ['docker-compose'];
    return { name: 'docker', buildArgs: [], compose };
  }
  if (wanted !== 'docker' && works('podman', ['info'])) {
    // --format docker keeps HEALTHCHECK (the OCI format has no place for it).
    return { name: 'podman', buildArgs: ['--format', 'docker'], compose: ['podman-compose'] };
  }
  throw new Error('neither docker nor podman works here (see docs/deploy.md, "Containers")');
}

// ---- the API, as a client would use it --------------------------------------------

/**
 * One request. A 503 from the service that could not reach its database in time (its pool's
 * 5 s connect timeout: seen in CI with podman's networks on a loaded machine, a request
 * waiting exactly 5 s, on both instances at once right after the stack came up) is tried
 * again after a second, at most twice, as a client's next calls would, and reported; /readyz
 * polls are left alone.
 */
async function api(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  let res = await request(baseUrl, method, path, options);
  for (let retry = 1; res.status === 503 && path !== '/readyz' && retry <= 2; retry += 1) {
    say(`${method} ${path} answered 503 (${res.text}); trying again (${retry} of 2)`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    res = await request(baseUrl, method, path, options);
  }
  return res;
}

async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const login = await api(baseUrl, 'POST', '/auth/login', { body: { username, password } });
  check(login.status === 200, `sign in as ${username}: ${login.status} ${login.text}`);
  return login.json.token as string;
}

/** A product, a customer and a license for them; returns what a validation needs. */
async function newLicense(baseUrl: string, token: string): Promise<{ licenseId: string; productId: string }> {
  const product = await api(baseUrl, 'POST', '/products', {
    token,
    body: { name: `Container test ${RUN}`, productType: 'software', price: 9.99, requiresLicense: true, isSubscription: false },
  });
  check(product.status === 201, `create product: ${product.status} ${product.text}`);
  const customer = await api(baseUrl, 'POST', '/customers', { token, body: { name: `Customer ${RUN}`, email: `c-${RUN}@example.com` } });
  check(customer.status === 201, `create customer: ${customer.status} ${customer.text}`);
  const license = await api(baseUrl, 'POST', '/licenses', {
    token,
    body: { productId: product.json.id, customerId: customer.json.id, expiresAtEpochMillis: null, maxIps: null, maxHwids: null },
  });
  check(license.status === 201, `create license: ${license.status} ${license.text}`);
  return { licenseId: license.json.id as string, productId: product.json.id as string };
}

/** One validation, which must answer valid. */
async function validate(baseUrl: string, license: { licenseId: string; productId: string }, hwid: string, headers: Record<string, string> = {}) {
  const res = await api(baseUrl, 'POST', '/licenses/validate', { body: { ...license, hwid }, headers });
  check(res.status === 200 && res.json.valid === true, `validation through ${baseUrl}: ${res.status} ${res.text}`);
  return res;
}

// ---- 1. the image -------------------------------------------------------------------

async function testImage(engine: Engine): Promise<void> {
  const e = engine.name;
  say(`${e}: building the image ${IMAGE}`);
  const built = Date.now();
  await run(e, ['build', ...engine.buildArgs, '-t', IMAGE, '.']);
  say(`built in ${((Date.now() - built) / 1000).toFixed(0)} s`);
  // The build stage too (cached layers: quick), for the compiler check below.
  await run(e, ['build', ...engine.buildArgs, '--target', 'build', '-t', `${IMAGE}-build-stage`, '.']);

  for (const image of [IMAGE, `${IMAGE}-build-stage`]) {
    const compilers = await run(e, ['run', '--rm', '--entrypoint', 'sh', image, '-c', 'for c in cc gcc g++ c++ make python3; do command -v $c; done; true']);
    check(compilers.stdout.trim() === '', `no compiler in ${image}, found: ${compilers.stdout.trim()}`);
  }
  const inspect = JSON.parse((await run(e, ['image', 'inspect', IMAGE])).stdout)[0];
  const config = inspect.Config;
  check(config.User === 'node', `runs as the unprivileged user node, not ${JSON.stringify(config.User)}`);
  const healthcheck = config.Healthcheck ?? inspect.Healthcheck; // docker: in Config; podman: beside it
  check(JSON.stringify(healthcheck?.Test ?? []).includes('/healthz'), `HEALTHCHECK on /healthz: ${JSON.stringify(healthcheck)}`);
  check(Object.keys(config.Volumes ?? {}).includes('/data'), 'a /data volume');
  say(`image: ${(inspect.Size / 1e6).toFixed(0)} MB, user ${config.User}, no compiler in the build or final stage`);

  // An example secret from the documentation stops the start: one line naming it, status 1.
  const refused = await run(e, ['run', '--rm', '-e', 'JWT_SECRET=change-me-to-32-or-more-random-bytes-xxxxxxxx', IMAGE], { allowFailure: true });
  check(refused.code === 1, `an example JWT_SECRET stops the start with status 1, got ${refused.code}`);
  const said = refused.stderr.split('\n').filter((line) => line.trim() && !/^time=".*level=/.test(line)); // podman's own notices aside
  check(said.length === 1 && /^Invalid configuration: JWT_SECRET is an example value/.test(said[0]!), `one line naming it, no stack trace: ${refused.stderr}`);
  say('an example JWT_SECRET: refused, naming it');

  // A fresh clone in the slim image (no compiler, no machine npmrc): `npm install` works and
  // leaves the tracked lockfile as it is. Mostly downloads: it runs beside what follows.
  const freshInstall = run(e, [
    'run', '--rm', '--entrypoint', 'sh', '-v', `${ROOT}:/src:ro`, `${IMAGE}-build-stage`, '-c',
    'mkdir /tmp/clone && cd /tmp/clone && cp /src/package.json /src/package-lock.json /src/.npmrc . ' +
      '&& npm install --no-audit --no-fund >/dev/null 2>&1 && cmp package-lock.json /src/package-lock.json && echo unchanged',
  ], { allowFailure: true });

  const port = await freePort();
  const volume = `licensing-test-${RUN}`;
  const name = `licensing-test-${RUN}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const startContainer = async (containerName: string) => {
    await run(e, ['run', '-d', '--name', containerName, '-p', `127.0.0.1:${port}:3000`, '-v', `${volume}:/data`, IMAGE]);
    return untilUp(
      'the start banner',
      async () => {
        const logs = await run(e, ['logs', containerName], { allowFailure: true });
        return /Licensing service listening on/.test(logs.stderr + logs.stdout) ? logs.stderr + logs.stdout : null;
      },
      120_000,
    );
  };
  try {
    say('running it: docker run -p 127.0.0.1:PORT:3000 -v VOLUME:/data IMAGE');
    const banner = await startContainer(name);
    const password = /password:\s+(\S+)/.exec(banner)?.[1];
    check(password, 'the first start prints the generated Master Admin password');
    check((await api(baseUrl, 'GET', '/healthz')).status === 200, '/healthz 200');
    check((await api(baseUrl, 'GET', '/readyz')).status === 200, '/readyz 200');
    const portal = await api(baseUrl, 'GET', '/portal/');
    check(portal.status === 200 && /<html/i.test(portal.text), `the portal page: ${portal.status}`);
    const health = await run(e, e === 'podman' ? ['healthcheck', 'run', name] : ['inspect', '--format', '{{.State.Health.Status}}', name], { allowFailure: true });
    if (e === 'podman') check(health.code === 0, `HEALTHCHECK passes: ${health.stdout}${health.stderr}`);
    const pid1 = await run(e, ['exec', name, 'sh', '-c', 'tr "\\0" " " < /proc/1/cmdline; echo; id -u']);
    const [cmdline, uid] = pid1.stdout.trim().split('\n');
    check(cmdline!.startsWith('node '), `node is PID 1: ${cmdline}`);
    check(uid !== '0', `not root: uid ${uid}`);

    const token = await signIn(baseUrl, 'admin', password);
    const license = await newLicense(baseUrl, token);
    await validate(baseUrl, license, 'container-hw-1');
    say('signed in with the printed password, created and validated a license');

    const stopping = Date.now();
    await run(e, ['kill', '--signal', 'TERM', name]);
    const exit = await run(e, ['wait', name]);
    const stopSeconds = (Date.now() - stopping) / 1000;
    check(exit.stdout.trim() === '0', `exit status 0 after SIGTERM, got ${exit.stdout.trim()}`);
    check(stopSeconds < 10, `stopped within 10 s of SIGTERM (took ${stopSeconds.toFixed(1)} s)`);
    const logs = await run(e, ['logs', name]);
    check(/shutting down/.test(logs.stdout + logs.stderr), 'the shutdown is logged');
    say(`SIGTERM: exit 0 after ${stopSeconds.toFixed(1)} s`);
    await run(e, ['rm', name]);

    const again = await startContainer(`${name}-2`);
    check(!/FIRST START/.test(again), 'a second start on the same volume prints no password');
    const token2 = await signIn(baseUrl, 'admin', password);
    const kept = await api(baseUrl, 'GET', `/licenses/${license.licenseId}`, { token: token2 });
    check(kept.status === 200, `the license survived in the volume: ${kept.status}`);
    say('second container on the volume: no password printed, data kept');

    const install = await freshInstall;
    check(install.stdout.includes('unchanged'), `npm install in a fresh clone leaves package-lock.json unchanged: ${install.stdout}${install.stderr}`);
    say('fresh clone in the slim image: npm install without a compiler, lockfile unchanged');
  } finally {
    await freshInstall.catch(() => {});
    await run(e, ['rm', '-f', name, `${name}-2`], { allowFailure: true });
    await run(e, ['volume', 'rm', '-f', volume], { allowFailure: true });
  }
}

// ---- 2. the compose stack -----------------------------------------------------------

interface Stack {
  project: string;
  /** compose.yaml, .env.example and deploy/ copied, with a .env of its own: a .env in the checkout plays no part. */
  dir: string;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  admin: { username: string; password: string };
}

async function containerOf(engine: Engine, stack: Stack, service: string): Promise<string> {
  const ids = await run(engine.name, [
    'ps', '-a', '-q',
    '--filter', `label=com.docker.compose.project=${stack.project}`,
    '--filter', `label=com.docker.compose.service=${service}`,
  ]);
  const id = ids.stdout.trim().split('\n')[0];
  check(id, `a container of ${service}`);
  return id;
}

async function compose(engine: Engine, stack: Stack, ...args: string[]) {
  const [command, ...rest] = engine.compose;
  return run(command!, [...rest, '-p', stack.project, '-f', 'compose.yaml', ...args], { env: stack.env, cwd: stack.dir });
}

/** Whether a node one-liner exits 0 inside `service`'s container (instances are not published). */
async function succeedsIn(engine: Engine, stack: Stack, service: string, script: string): Promise<boolean> {
  return (await run(engine.name, ['exec', await containerOf(engine, stack, service), 'node', '-e', script], { allowFailure: true })).code === 0;
}

/** An instance's own /readyz. */
const instanceReady = (engine: Engine, stack: Stack, service: string) =>
  succeedsIn(engine, stack, service, "fetch('http://127.0.0.1:3000/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))");

/**
 * Up, and every instance ready: each one's own /readyz, then the balancer's. (Through the
 * balancer alone, one ready instance answered while the other still waited for its
 * database, and a POST it was given answered 503: nginx does not pass a POST on.)
 */
async function up(engine: Engine, stack: Stack): Promise<void> {
  await compose(engine, stack, 'up', '-d');
  await untilUp('both instances ready', async () => {
    for (const service of ['app1', 'app2']) if (!(await instanceReady(engine, stack, service))) return false;
    return (await api(stack.baseUrl, 'GET', '/readyz')).status === 200;
  }, 180_000);
}

/** Everything the balancer logged. */
async function balancerLogText(engine: Engine, stack: Stack): Promise<string> {
  const logs = await run(engine.name, ['logs', await containerOf(engine, stack, 'balancer')]);
  return logs.stdout + logs.stderr;
}

/** The balancer's access log lines of validations: caller address and the instance that answered. */
async function balancerLog(engine: Engine, stack: Stack): Promise<{ remote: string; upstream: string; status: string }[]> {
  return (await balancerLogText(engine, stack))
    .split('\n')
    .map((line) => /^(\S+) \[[^\]]*\] "POST \/licenses\/validate" (\d+) upstream=(\S+)/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ remote: match[1]!, status: match[2]!, upstream: match[3]! }));
}

/** A container's address on the stack's network `network`. */
async function addressOn(engine: Engine, stack: Stack, service: string, network: string): Promise<string> {
  const inspect = JSON.parse((await run(engine.name, ['inspect', await containerOf(engine, stack, service)])).stdout)[0];
  const networks = inspect.NetworkSettings.Networks as Record<string, { IPAddress: string }>;
  const address = networks[`${stack.project}_${network}`]?.IPAddress;
  check(address, `${service}'s address on ${network}: ${JSON.stringify(Object.keys(networks))}`);
  return address;
}

/** `count` validations through the balancer, each timed; every status is counted (no retries). */
async function timedValidations(stack: Stack, license: { licenseId: string; productId: string }, count: number, hwid: string) {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const status = await request(stack.baseUrl, 'POST', '/licenses/validate', { body: { ...license, hwid: `${hwid}-${i % 2}` } }).then(
      (res) => String(res.status),
      (err: unknown) => `error ${(err as Error).message}`,
    );
    times.push(performance.now() - started);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { p99: sorted[Math.ceil(count * 0.99) - 1]!, max: sorted[count - 1]!, statuses, ok: statuses['200'] ?? 0 };
}

/** A Polymart ping signed with `secret`, as Polymart sends it. */
async function polymartPing(baseUrl: string, secret: string) {
  const body = JSON.stringify({ event: 'ping', time: Math.floor(Date.now() / 1000), nonce: `ping-${randomBytes(6).toString('hex')}` });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  return request(baseUrl, 'POST', '/integrations/polymart', { rawBody: body, headers: { 'content-type': 'application/json', 'x-polymart-signature': signature } });
}

async function testStack(engine: Engine): Promise<void> {
  const e = engine.name;
  const project = `licensing-test-${RUN}`;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'licensing-compose-'));
  for (const file of ['compose.yaml', '.env.example', 'deploy']) cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  // The stack's settings come from .env alone, as an operator's do: none from this process.
  const env = { ...process.env };
  for (const name of [...readFileSync(join(dir, '.env.example'), 'utf8').matchAll(/^#? ?([A-Z_]+)=/gm)].map((m) => m[1]!)) delete env[name];
  const stack: Stack = { project, dir, baseUrl: `http://127.0.0.1:${port}`, admin: { username: 'admin', password: '' }, env };
  const polymartSecret = secret();
  // The image the stack names, as built above (compose then builds nothing).
  await run(e, ['tag', IMAGE, 'licensing-service:local']);
  const networks = [`${project}_proxy`, `${project}_backend`, `${project}_default`];
  let validations = 0;
  try {
    // .env as the README says: the one command, then the port and two settings of the service.
    await run('sh', ['deploy/make-env.sh'], { cwd: dir });
    const made = readFileSync(join(dir, '.env'), 'utf8');
    // Compose refuses to start without a required secret (a copy of .env.example: not set).
    writeFileSync(join(dir, '.env'), made.replace(/^JWT_SECRET=.*$/m, '#JWT_SECRET='));
    const refused = await compose(engine, stack, 'up', '-d').then(() => null, (err: Error) => err.message);
    check(refused !== null && /JWT_SECRET/.test(refused), `up without JWT_SECRET fails naming it: ${refused}`);
    check(!(await run(e, ['ps', '-a', '-q', '--filter', `label=com.docker.compose.project=${project}`])).stdout.trim(), 'nothing was started');
    say('no JWT_SECRET in .env: compose refuses to start, naming it');
    writeFileSync(join(dir, '.env'), made.replace(/^HTTP_PORT=.*$/m, `HTTP_PORT=${port}`));
    appendFileSync(join(dir, '.env'), `POLYMART_WEBHOOK_SECRET=${polymartSecret}\nVALIDATION_RATE_LIMIT=10000\n`);
    stack.admin.password = /^MASTER_ADMIN_PASSWORD=(.+)$/m.exec(made)![1]!;

    say(`${engine.compose.join(' ')} up -d (project ${project}, balancer on 127.0.0.1:${port})`);
    await up(engine, stack);
    say('stack up: postgres, redis, app1, app2, balancer');

    const token = await signIn(stack.baseUrl, stack.admin.username, stack.admin.password);
    const license = await newLicense(stack.baseUrl, token);
    for (let i = 0; i < 8; i += 1, validations += 1) await validate(stack.baseUrl, license, `hw-${i % 2}`);
    const forged = '203.0.113.77';
    await validate(stack.baseUrl, license, 'hw-forged', { 'x-forwarded-for': forged });
    validations += 1;

    const lines = await balancerLog(engine, stack);
    const instances = new Set(lines.map((line) => line.upstream));
    check(instances.size >= 2, `validations landed on both instances: ${[...instances].join(', ')}`);
    const callers = new Set(lines.map((line) => line.remote));
    check(callers.size === 1, `one caller address in the balancer's log: ${[...callers].join(', ')}`);
    const caller = [...callers][0]!;
    const balancerIp = await addressOn(engine, stack, 'balancer', 'proxy');
    const recorded = await api(stack.baseUrl, 'GET', `/licenses/${license.licenseId}`, { token });
    const ips = new Set((recorded.json.validationAttempts as { ip: string }[]).map((attempt) => attempt.ip));
    check(recorded.json.validationAttempts.length === validations, `${validations} attempts recorded, got ${recorded.json.validationAttempts.length}`);
    check(ips.size === 1 && ips.has(caller), `each attempt records the caller's address ${caller}, got ${[...ips].join(', ')}`);
    check(caller !== balancerIp, `the caller's address is not the balancer's (${balancerIp})`);
    check(!ips.has(forged), 'a forged X-Forwarded-For through the balancer is not recorded');
    say(`validations through the balancer landed on ${[...instances].join(' and ')}; recorded IP ${caller} (balancer ${balancerIp}), forged header ignored`);

    // From the host straight to an instance (the host reaches the containers' network through
    // its gateway): X-Forwarded-For is believed from the balancer's address only.
    const app1Ip = await addressOn(engine, stack, 'app1', 'proxy');
    const direct = await request(`http://${app1Ip}:3000`, 'POST', '/licenses/validate', {
      body: { ...license, hwid: 'hw-direct' },
      headers: { 'x-forwarded-for': forged },
    });
    check(direct.status === 200 && direct.json.valid === true, `a validation sent from the host to app1 (${app1Ip}): ${direct.status} ${direct.text}`);
    validations += 1;
    const afterDirect = await api(stack.baseUrl, 'GET', `/licenses/${license.licenseId}`, { token });
    const directAttempt = (afterDirect.json.validationAttempts as { hwid: string; ip: string }[]).find((attempt) => attempt.hwid === 'hw-direct');
    check(directAttempt && directAttempt.ip !== forged && directAttempt.ip !== balancerIp, `from the host, the forged header is not believed: recorded ${directAttempt?.ip}`);
    say(`from the host straight to app1 with a forged X-Forwarded-For: recorded ${directAttempt.ip}`);

    // Settings given only in .env: the Polymart secret (without it the route answers 503).
    const ping = await polymartPing(stack.baseUrl, polymartSecret);
    check(ping.status === 200, `a signed Polymart ping through the balancer: ${ping.status} ${ping.text}`);
    check((await polymartPing(stack.baseUrl, secret())).status === 401, 'a ping signed with another secret is refused');
    say('POLYMART_WEBHOOK_SECRET given in .env only: a signed ping answers 200');

    // app1 stopped: the balancer's next validations go to app2 at once (VALIDATION_RATE_LIMIT
    // from .env lets 100 through from one address).
    await compose(engine, stack, 'stop', '-t', '10', 'app1');
    const afterStop = await timedValidations(stack, license, 100, 'hw-after-stop');
    validations += afterStop.ok;
    check(afterStop.ok === 100, `100 validations after stop app1 all answer 200: ${JSON.stringify(afterStop.statuses)}`);
    check(afterStop.p99 < 1000, `p99 under 1 s after stop app1: ${afterStop.p99.toFixed(0)} ms (max ${afterStop.max.toFixed(0)} ms)`);
    say(`app1 stopped: 100 validations, all 200, p99 ${afterStop.p99.toFixed(0)} ms, max ${afterStop.max.toFixed(0)} ms`);

    // The balancer's log: routes, never a license key (nor the query string).
    await api(stack.baseUrl, 'GET', `/licenses/${license.licenseId}?key=${license.licenseId}`, { token });
    const log = await balancerLogText(engine, stack);
    check(!log.includes(license.licenseId), "the balancer's log has no license key");
    check(/"GET \/licenses\/\*" 200/.test(log) && /"POST \/licenses\/validate" 200/.test(log), 'the log names the routes');
    say("the balancer's log names routes (GET /licenses/*), no key");

    // app1 back (often at a new address, which the balancer follows), then killed.
    await compose(engine, stack, 'start', 'app1');
    await until('app1 ready again and reached through the balancer', async () => {
      if (!(await instanceReady(engine, stack, 'app1'))) return false;
      const app1Address = await addressOn(engine, stack, 'app1', 'proxy');
      await validate(stack.baseUrl, license, 'hw-back');
      validations += 1;
      return (await balancerLog(engine, stack)).some((line) => line.upstream === `${app1Address}:3000`);
    }, Boolean, { timeoutMs: 120_000 });
    say('app1 started again: the balancer sends it validations');
    await run(e, ['kill', await containerOf(engine, stack, 'app1')]); // SIGKILL: the instance dies, it is not stopped
    const afterKill = await timedValidations(stack, license, 20, 'hw-after-kill');
    validations += afterKill.ok;
    check(afterKill.ok === 20, `20 validations after app1 was killed all answer 200: ${JSON.stringify(afterKill.statuses)}`);
    say(`app1 killed: 20 validations, all 200, max ${afterKill.max.toFixed(0)} ms`);

    // down + up keeps the data (named volumes).
    await compose(engine, stack, 'down');
    await up(engine, stack);
    const token2 = await signIn(stack.baseUrl, stack.admin.username, stack.admin.password);
    const kept = await api(stack.baseUrl, 'GET', `/licenses/${license.licenseId}`, { token: token2 });
    check(kept.status === 200 && kept.json.validationAttempts.length === validations, `the license and its ${validations} attempts survived down + up: ${kept.status} ${kept.json?.validationAttempts?.length}`);
    await validate(stack.baseUrl, license, 'hw-0');
    say('down + up: the license and its attempts are still there');
  } catch (err) {
    // What the services said is gone with down -v: shown here, so a failure can be read.
    for (const service of ['app1', 'app2', 'postgres', 'balancer']) {
      const id = await containerOf(engine, stack, service).catch(() => null);
      if (!id) continue;
      const logs = await run(e, ['logs', '--tail', '30', id], { allowFailure: true });
      console.error(`--- ${service} (last 30 lines)\n${logs.stdout}${logs.stderr}`);
    }
    throw err;
  } finally {
    await compose(engine, stack, 'down', '-v').catch((err: unknown) => say(`down -v failed: ${String(err)}`));
    // podman-compose 1.0 leaves networks behind; a leftover volume would be a bug of down -v.
    for (const network of networks) await run(e, ['network', 'rm', '-f', network], { allowFailure: true });
    const left = await run(e, ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`], { allowFailure: true });
    if (left.stdout.trim()) say(`volumes left after down -v: ${left.stdout.trim()}`);
    rmSync(dir, { recursive: true, force: true });
    check(!left.stdout.trim(), 'down -v removes the named volumes');
    say('down -v: stack and volumes removed');
  }
}

async function main(): Promise<void> {
  const engine = await findEngine();
  say(`engine: ${engine.name} (compose: ${engine.compose.join(' ')})`);
  try {
    await testImage(engine);
    await testStack(engine);
  } finally {
    // podman keeps its build cache in the images' layers: untagged, they still serve the next
    // build (licensing-service:local, the stack's image, stays). docker's cache is apart.
    for (const image of [`${IMAGE}-build-stage`, IMAGE]) {
      await run(engine.name, engine.name === 'podman' ? ['untag', image, image] : ['rmi', image], { allowFailure: true });
    }
  }
  say('container tests passed');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
