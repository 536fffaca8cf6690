// Builds the package: ESM with types in dist/, CommonJS in dist/cjs/ (its own package.json
// says so, since the package itself is "type": "module"). TypeScript is this package's
// devDependency; inside the service's repository Node finds the root's copy as well.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
for (const config of ['tsconfig.json', 'tsconfig.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', join(here, config)], { stdio: 'inherit' });
}
writeFileSync(join(here, 'dist', 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
