// Decides whether the built output (dist/ and portal/dist/) matches the sources, so that
// `npm start` builds only when something changed (a fresh clone, a pull, an edit).
//   node scripts/build-stamp.mjs write    record the sources' fingerprint (end of `npm run build`)
//   node scripts/build-stamp.mjs ensure   build unless the recorded fingerprint is current
// The fingerprint hashes file contents, not mtimes: a checkout that touches files without
// changing them does not force a rebuild, and an edit within the same second still does.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp');
/** What the build reads: server sources, portal sources and the build settings. */
const INPUTS = ['src', 'portal', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const SKIP = new Set(['dist', 'node_modules']);
/** Without these the service cannot start, whatever the stamp says. */
const OUTPUTS = ['dist/server.js', 'dist/cli.js', 'portal/dist/index.html'];

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test.tsx'))
    .flatMap((entry) => files(join(path, entry.name)));
}

export function fingerprint() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files).sort()) {
    hash.update(relative(root, join(root, file))).update('\0').update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

export function isCurrent() {
  if (!OUTPUTS.every((file) => existsSync(join(root, file)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === fingerprint();
}

const command = process.argv[2];
if (command === 'write') {
  writeFileSync(STAMP, `${fingerprint()}\n`);
} else if (command === 'ensure') {
  if (isCurrent()) {
    console.error('build is current: starting without rebuilding');
  } else {
    console.error('sources changed since the last build (or no build yet): building first');
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
} else {
  console.error('usage: node scripts/build-stamp.mjs write|ensure');
  process.exit(2);
}
