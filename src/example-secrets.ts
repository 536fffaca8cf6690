// Every secret value the repository shows or has shown (.env.example, README, docs/): a
// deployment that copied one is refused at start (config.ts). test/docs/example-secrets.test.ts
// fails when a document shows a secret value that is not listed here.

/** Values shown as secrets in the repository's files, now or in earlier versions. */
export const EXAMPLE_SECRETS: readonly string[] = [
  // .env.example before it left the secrets empty
  'change-me-admin-password',
  'change-me-to-32-or-more-random-bytes-xxxxxxxx',
  'change-me-postgres-password',
  // README: MASTER_ADMIN_PASSWORD='a long password'
  'a long password',
  // docs/webhooks.md: MARKETPLACE_SECRET=s3cret, POLYMART_WEBHOOK_SECRET=s3cret
  's3cret',
];

/** Placeholders no one means as a secret: "change me" in any spelling ("CHANGEME", "change-me-now"), or a whole `<…>`. */
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|^\s*<.*>\s*$/i;

/**
 * Whether `value` is one of the repository's example secrets (compared without surrounding
 * blanks or quotes, and without case) or reads as a placeholder to be replaced.
 */
export function isExampleSecret(value: string): boolean {
  const bare = value.trim().replace(/^(['"])(.*)\1$/, '$2').trim().toLowerCase();
  return EXAMPLE_SECRETS.some((example) => example.toLowerCase() === bare) || PLACEHOLDER.test(value);
}
