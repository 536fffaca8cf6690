// The TypeScript client as a vendor gets it: `npm pack` makes a tarball that installs into an
// empty project, where both `import` and `require` work, types are found and the bin runs.
// Needs `npm run build:clients` (part of `pretest`) for the TypeScript compiler it reuses.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE = join(process.cwd(), 'clients', 'typescript');

describe('@licensing/client packaging', () => {
  let dir: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'license-client-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(dir, packed!.filename);
    expect(packed!.files.map((f) => f.path).filter((path) => !path.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    project = join(dir, 'app');
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'vendor-app', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs with no dependencies of its own', () => {
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@licensing']);
  });

  it('loads with import (ESM) and with require (CommonJS), exposing the same API', async () => {
    const names = 'Object.keys(m).sort().join(",")';
    writeFileSync(join(project, 'esm.mjs'), `import * as m from '@licensing/client'; console.log(${names});`);
    writeFileSync(join(project, 'cjs.cjs'), `const m = require('@licensing/client'); console.log(${names});`);
    const esm = (await run(process.execPath, ['esm.mjs'], { cwd: project })).stdout.trim();
    const cjs = (await run(process.execPath, ['cjs.cjs'], { cwd: project })).stdout.trim();
    expect(esm).toBe('LicenseClient,MACHINE_ID_ENV,PinnedKeys,machineId,releaseMachine,verifyLicenseFile');
    expect(cjs).toBe(esm);
    // require gives working code, not just names
    writeFileSync(join(project, 'id.cjs'), `require('@licensing/client').machineId('./id-file').then((id) => console.log(id));`);
    expect((await run(process.execPath, ['id.cjs'], { cwd: project })).stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ships its types and its command line', async () => {
    const exported = JSON.parse((await run(process.execPath, ['-p', "JSON.stringify(require('@licensing/client/package.json').exports)"], { cwd: project })).stdout);
    expect(exported['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js', require: './dist/cjs/index.js', default: './dist/index.js' });
    expect(readdirSync(join(project, 'node_modules', '@licensing', 'client', 'dist'))).toContain('index.d.ts');
    const bin = await run(join(project, 'node_modules', '.bin', 'license-client'), ['machine-id', '--file', join(project, 'machine-id')]);
    expect(bin.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
