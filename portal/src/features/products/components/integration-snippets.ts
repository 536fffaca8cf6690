// Copy-paste snippets for a product's Integrate panel: curl, TypeScript client, Java client.
export interface Snippet {
  id: 'curl' | 'typescript' | 'java';
  title: string;
  code: string;
}

export function integrationSnippets(serviceUrl: string, productId: string): Snippet[] {
  return [
    {
      id: 'curl',
      title: 'curl',
      code: `curl -si -X POST ${serviceUrl}/licenses/validate \\
  -H 'content-type: application/json' \\
  -d '{"licenseId":"LICENSE-KEY","productId":"${productId}","hwid":"machine-id","nonce":"'$(openssl rand -hex 16)'"}'
# the answer carries a Validation-Receipt header (a JWS signed by a key in jwks.json)`,
    },
    {
      id: 'typescript',
      title: 'TypeScript (Node 20+, @licensing/client)',
      code: `import { readFileSync } from 'node:fs';
import { LicenseClient } from '@licensing/client';

const client = new LicenseClient({
  url: '${serviceUrl}',
  jwks: JSON.parse(readFileSync(new URL('./jwks.json', import.meta.url), 'utf8')), // pinned, shipped with the app
  cacheFile: '.license-cache.json',
  graceHours: 72,
});
const result = await client.validate({ licenseId: userLicenseKey, productId: '${productId}', hwid: machineId });
if (result.status === 'INVALID') throw new Error(\`License not valid: \${result.reason}\`);`,
    },
    {
      id: 'java',
      title: 'Java 17+ (license-client.jar, no dependencies)',
      code: `PinnedKeys keys = new PinnedKeys(new String(
    MyPlugin.class.getResourceAsStream("/jwks.json").readAllBytes(), StandardCharsets.UTF_8));
LicenseClient client = new LicenseClient("${serviceUrl}", keys,
    getDataFolder().toPath().resolve("license-cache.json"), 72, Duration.ofSeconds(10));
ValidationResult result = client.validate(licenseKey, "${productId}", machineId);
if (!result.isValid()) { getLogger().severe("License: " + result); disablePlugin(); }`,
    },
  ];
}
