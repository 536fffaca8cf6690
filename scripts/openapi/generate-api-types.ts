// npm run generate:api-types: rewrites portal/src/types/api.ts from the OpenAPI document.
import { writeFileSync } from 'node:fs';
import { apiTypesSource, API_TYPES_FILE } from './api-types.js';

writeFileSync(API_TYPES_FILE, await apiTypesSource());
console.log(`wrote ${API_TYPES_FILE.pathname}`);
