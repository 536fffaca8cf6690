// Every shell command of the README and docs/*.md that talks to the service (each ```sh
// block containing `curl`) works as pasted: the blocks of one document run in order, in one
// bash session (so variables set by one block serve the next, as in a reader's terminal),
// against a live service, and every curl must get a 2xx (`--fail-with-body`).
//
// What a reader fills in is substituted, always the same way:
//   http://localhost:3000, localhost:3000  → the test service's address
//   "username":"admin", <printed password> → the test service's Master Admin
//   <token>                                → that account's token
//   https://example.com/hooks/licensing    → a local receiver (this machine has no DNS;
//                                            WEBHOOK_ALLOW_PRIVATE_NETWORKS lets it in)
// Each document's session starts with URL, TOKEN and auth set as the README's "Protect your
// application" sets them, and the service has what the examples say they assume:
// MARKETPLACE_SECRET and POLYMART_WEBHOOK_SECRET set (fresh values, exported to the session
// as the reader's shell has them), a product whose marketplaceResourceId is 12345 and
// polymartProductId 1234.
// Blocks without curl (installing, starting, backups, tests, benchmarks) are run by
// their own tests (cli, start, backup) or by CI, not here.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../helpers/fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.js';
import { answer, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const ROOT = process.cwd();
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The ```sh blocks of a document that call the service. */
function curlBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => /\bcurl\b/.test(block));
}

/** Runs `script` in bash (Node's own directory first on PATH: the examples call `node`), killed after 60 s. */
function run(script: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** What the examples call `$MARKETPLACE_SECRET` and `$POLYMART_WEBHOOK_SECRET`. */
const SECRETS = { marketplace: randomBytes(16).toString('hex'), polymart: randomBytes(16).toString('hex') };

describe('shell commands of the README and docs', () => {
  let t: TestApp;
  let receiver: Receiver;
  let cwd: string;
  const documents = DOCUMENTS.filter((file) => curlBlocks(file).length > 0);

  beforeAll(async () => {
    t = await startTestApp('sqlite', {
      MARKETPLACE_SECRET: SECRETS.marketplace,
      POLYMART_WEBHOOK_SECRET: SECRETS.polymart,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    receiver = await startReceiver();
    receiver.behave(answer(204));
    await createProduct(t, { marketplaceResourceId: '12345', polymartProductId: '1234' });
    cwd = mkdtempSync(join(tmpdir(), 'doc-commands-'));
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  const substituted = (block: string) =>
    block
      .replaceAll('http://localhost:3000', t.baseUrl)
      .replaceAll('localhost:3000', t.baseUrl)
      .replaceAll('"username":"admin"', `"username":"${ADMIN.username}"`)
      .replaceAll('<printed password>', ADMIN.password)
      .replaceAll('<token>', t.adminToken)
      .replaceAll('https://example.com/hooks/licensing', receiver.url);

  it('finds the documents with commands to run', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/webhooks.md', 'docs/selling.md']));
  });

  it.each(DOCUMENTS.filter((file) => curlBlocks(file).length > 0))('%s: every curl command succeeds as pasted', async (file) => {
    const session = [
      'set -euo pipefail',
      // Every curl of the document fails the run on a non-2xx answer, printing the answer.
      'curl() { command curl --fail-with-body "$@"; }',
      `URL=${t.baseUrl}`,
      `MARKETPLACE_SECRET=${SECRETS.marketplace}`,
      `POLYMART_WEBHOOK_SECRET=${SECRETS.polymart}`,
      `TOKEN=${t.adminToken}`,
      `auth=(-H "authorization: Bearer $TOKEN" -H 'content-type: application/json')`,
      ...curlBlocks(file).map((block, i) => `echo "--- block ${i + 1}" >&2\n${substituted(block)}`),
    ].join('\n');
    // Asynchronous: the service answering the commands runs in this process.
    const result = await run(session, cwd);
    expect(result.status, `${file}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
    expect(result.stdout).not.toMatch(/"error"/);
  });
});

// The docs cite what a reader of the repository can open: the API reference (/docs) and
// docs/decisions.md, not the team's contract files kept outside it.
describe('documentation citations', () => {
  it.each(DOCUMENTS)('%s names no contract file outside the repository', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/\b(SPEC|DECISIONS)\.md\b|\.\.\/shared\//);
  });
});
