// Every secret value the repository's documents show must be in src/example-secrets.ts, so
// a deployment that copies it is refused at start. A new example in README.md, docs/,
// .env.example, compose.yaml or deploy/ that is not listed there fails this test.
// What counts as a secret value: `NAME=value` (quoted or not, in prose, shell or .env) and
// `NAME: value` (YAML) where NAME ends in SECRET, PASSWORD or TOKEN (any case: curl's
// `-d secret=…` too), and `"key": "value"` in JSON for the configuration file's secret
// keys. Shell expansions (`$VAR`, `$(…)`) and `…` are not values.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isExampleSecret } from '../../src/example-secrets.js';

const ROOT = process.cwd();
const files = [
  'README.md',
  '.env.example',
  'compose.yaml',
  ...readdirSync(join(ROOT, 'docs')).map((file) => `docs/${file}`),
  ...readdirSync(join(ROOT, 'deploy')).map((file) => `deploy/${file}`),
  'clients/java/README.md',
  'clients/typescript/README.md',
];

const VALUE = String.raw`(<[^>]*>|'[^']*'|"[^"]*"|[^\s\`'"),;]+)`;
const PATTERNS = [
  new RegExp(String.raw`\b([A-Za-z_]*(?:secret|password|token))=` + VALUE, 'gi'),
  new RegExp(String.raw`^\s*([A-Z_]*(?:SECRET|PASSWORD|TOKEN)):\s*` + VALUE, 'gm'),
  new RegExp(String.raw`"(jwtSecret|secret|webhookSecret|placeholderSecret|password|token|privateKey)"\s*:\s*` + VALUE, 'g'),
];

/** The secret-looking values a text shows, with the name they are given to. */
export function secretValues(text: string): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  for (const pattern of PATTERNS) {
    for (const [, name, raw] of text.matchAll(pattern)) {
      const value = raw!.replace(/^(['"])(.*)\1$/, '$2');
      if (value === '' || value.startsWith('$') || /^(…|\.\.\.)$/.test(value)) continue;
      found.push({ name: name!, value });
    }
  }
  return found;
}

describe('example secrets in the documents', () => {
  it('finds what a new example would look like', () => {
    const sample = [
      'start with `MASTER_ADMIN_PASSWORD=hunter22 npm start`',
      "JWT_SECRET='my example secret of 32 bytes!!'",
      'curl -d secret=abc123 -d user_id=7',
      '    POLYMART_WEBHOOK_SECRET: from-compose',
      '{"polymart": {"webhookSecret": "pm-secret"}}',
      'SECRET=$POLYMART_WEBHOOK_SECRET TOKEN=$(curl …) "secret": "…" JWT_SECRET=',
    ].join('\n');
    expect(secretValues(sample).map((found) => found.value)).toEqual(['hunter22', 'my example secret of 32 bytes!!', 'abc123', 'from-compose', 'pm-secret']);
  });

  it.each(files)('%s shows no secret value the service would accept', (file) => {
    const shown = secretValues(readFileSync(join(ROOT, file), 'utf8')).filter(({ value }) => !isExampleSecret(value));
    expect(shown, 'add these to src/example-secrets.ts (or show no value)').toEqual([]);
  });
});
