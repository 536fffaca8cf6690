// Writes the OpenAPI document to a file (npm run lint:openapi lints what it writes).
// Usage: tsx scripts/openapi/write.ts <out-file>
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './document.js';

const out = process.argv[2] ?? 'test-artifacts/openapi.json';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
