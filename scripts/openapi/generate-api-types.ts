// npm run generate:api-types: rewrites portal/src/types/api.ts from the OpenAPI document.
// With --check (npm test): writes nothing, fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { apiTypesSource, API_TYPES_FILE } from './api-types.js';

const source = await apiTypesSource();
if (process.argv.includes('--check')) {
  if (readFileSync(API_TYPES_FILE, 'utf8') !== source) {
    console.error('portal/src/types/api.ts is stale: the OpenAPI document changed. Run `npm run generate:api-types` and commit it.');
    process.exit(1);
  }
  console.log('portal/src/types/api.ts matches the OpenAPI document');
} else {
  writeFileSync(API_TYPES_FILE, source);
  console.log(`wrote ${API_TYPES_FILE.pathname}`);
}
