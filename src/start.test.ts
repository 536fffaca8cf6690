// Starting the service as an operator does: the build is reused when current
// (scripts/build-stamp.mjs), the banner names the addresses and, on the first start only,
// the generated Master Admin credentials; logs are JSON or readable lines (LOG_FORMAT).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeFlags } from '../bench/processes.js';
import { request } from '../test/helpers/http.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/helpers/test-app.js';
import { until } from '../test/helpers/until.js';

describe('npm start reuses a current build (scripts/build-stamp.mjs)', () => {
  let project: string;
  const builds = () => readFileSync(join(project, 'builds.log'), 'utf8').trim().split('\n').filter(Boolean).length;
  const ensure = () => execFileSync(process.execPath, ['scripts/build-stamp.mjs', 'ensure'], { cwd: project, stdio: 'pipe' });

  beforeAll(() => {
    // A miniature project with the real script: its "build" writes the outputs and counts itself.
    project = mkdtempSync(join(tmpdir(), 'licensing-stamp-'));
    for (const dir of ['scripts', 'src', 'portal/src']) mkdirSync(join(project, dir), { recursive: true });
    copyFileSync(new URL('../scripts/build-stamp.mjs', import.meta.url), join(project, 'scripts/build-stamp.mjs'));
    writeFileSync(join(project, 'src/server.ts'), 'export const a = 1;\n');
    writeFileSync(join(project, 'portal/src/app.tsx'), 'export const b = 1;\n');
    writeFileSync(join(project, 'builds.log'), '');
    writeFileSync(
      join(project, 'build.mjs'),
      `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
mkdirSync('dist', { recursive: true }); mkdirSync('portal/dist', { recursive: true });
for (const f of ['dist/server.js', 'dist/cli.js', 'portal/dist/index.html']) writeFileSync(f, '');
appendFileSync('builds.log', 'built\\n');\n`,
    );
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'stamp-test', private: true, scripts: { build: 'node build.mjs && node scripts/build-stamp.mjs write' } }),
    );
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('builds a fresh clone, then starts without building until a source changes', () => {
    ensure();
    expect(builds()).toBe(1);
    ensure();
    expect(builds()).toBe(1);

    // A touched but unchanged file (a checkout) does not force a build.
    utimesSync(join(project, 'src/server.ts'), new Date(), new Date(Date.now() + 5000));
    ensure();
    expect(builds()).toBe(1);

    writeFileSync(join(project, 'portal/src/app.tsx'), 'export const b = 2;\n');
    ensure();
    expect(builds()).toBe(2);
    ensure();
    expect(builds()).toBe(2);

    // Missing output is rebuilt whatever the stamp says.
    rmSync(join(project, 'portal/dist/index.html'));
    ensure();
    expect(builds()).toBe(3);
  });
});

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  baseUrl: string;
}

/** Runs src/server.ts as `npm start` does and waits for its banner. */
async function startServer(databaseUrl: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: '', MASTER_ADMIN_USERNAME: '', MASTER_ADMIN_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The banner is written in one piece once the service listens.
      const match = /listening on 127\.0\.0\.1:(\d+)[\s\S]*Database:.*\n\n/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, baseUrl: `http://127.0.0.1:${port}` };
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null) return;
  started.child.kill('SIGTERM');
  await once(started.child, 'exit');
}

describe.each(DIALECTS)('start banner and log format (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database?.drop());

  it('first start: addresses and the generated admin in a box on stderr, JSON logs without the password; later starts: no box', async () => {
    const first = await startServer(database.url, { LOG_FORMAT: 'json' });
    let password: string;
    try {
      const banner = first.stderr();
      expect(banner).toContain(`Portal:         ${first.baseUrl}/portal/`);
      expect(banner).toContain(`API reference:  ${first.baseUrl}/docs`);
      expect(banner).toMatch(/\+-{20,}\+\n\|\s+FIRST START: a Master Admin account was created/);
      expect(banner).toMatch(/username:\s+admin/);
      password = /password:\s+(\S+)/.exec(banner)![1]!;
      const login = await request(first.baseUrl, 'POST', '/auth/login', { body: { username: 'admin', password } });
      expect(login.status).toBe(200);

      const lines = first.stdout().trim().split('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(first.stdout()).not.toContain(password);
    } finally {
      await stop(first);
    }

    const second = await startServer(database.url, { LOG_FORMAT: 'pretty' });
    try {
      expect(second.stderr()).not.toContain('FIRST START');
      expect(second.stderr()).not.toContain(password);
      // Readable lines, not JSON objects.
      expect(second.stdout()).toMatch(/INFO.*Server listening/);
      expect(second.stdout().trim().split('\n').some((line) => line.startsWith('{'))).toBe(false);
    } finally {
      await stop(second);
    }
  });
});

describe('npm start forwards signals', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => database?.drop());

  it('SIGTERM to the process `npm start` started stops the server (no node left listening)', async () => {
    // npm forwards SIGTERM to its script's shell; `exec` in the script makes that shell the
    // server itself. Without it the shell dies and node keeps listening, orphaned.
    const child = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', MASTER_ADMIN_USERNAME: '', MASTER_ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${stderr}`)));
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    expect((await request(baseUrl, 'GET', '/healthz')).status).toBe(200);

    child.kill('SIGTERM');
    await once(child, 'exit');
    // npm may exit before the server it signalled has closed its listener: the port must
    // come to refuse connections.
    await until('the port refusing connections', () => request(baseUrl, 'GET', '/healthz').then(() => false, () => true), undefined, { timeoutMs: 5000 });
  }, 60_000);
});

describe('one set of node flags for the server', () => {
  it('the image and docs/deploy.md run dist/server.js with the flags of npm start (docs/scale.md, "Node flags")', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))![1]!;
    expect(JSON.parse(cmd)).toEqual(['node', ...startNodeFlags(), 'dist/server.js']);
    expect(readFileSync('docs/deploy.md', 'utf8')).toContain(['node', ...startNodeFlags(), 'dist/server.js'].join(' '));
    expect(startNodeFlags()).toEqual(expect.arrayContaining(['--max-semi-space-size=32', '--no-concurrent-marking']));
  });
});
