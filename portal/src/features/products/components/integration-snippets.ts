// Copy-paste snippets for a product's Integrate panel: curl, TypeScript client, Java client.
// Each is complete and runs as pasted (test/clients/integration-snippets.test.ts runs the
// curl and the Node module against a live service, and compiles and runs the Java plugin).
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
      title: 'Node.js 22.13+ (npm install @licensing/client): license.mjs, also valid TypeScript',
      code: `// Ship jwks.json (above) next to this file: the client never fetches keys at run time.
import { readFileSync } from 'node:fs';
import { LicenseClient, machineId } from '@licensing/client';

const licenseKey = process.env.LICENSE_KEY ?? 'LICENSE-KEY'; // the buyer's key, from your app's config
const client = new LicenseClient({
  url: '${serviceUrl}',
  jwks: JSON.parse(readFileSync(new URL('./jwks.json', import.meta.url), 'utf8')),
  cacheFile: 'license-cache.json', // the last genuine answer: runs offline for graceHours
  graceHours: 72,
});
// A random id kept in this file: the same across restarts and panel moves.
const hwid = await machineId('machine-id');
const result = await client.validate({ licenseId: licenseKey, productId: '${productId}', hwid });
if (result.status === 'INVALID') {
  // reason: REJECTED | UNVERIFIED | UNREACHABLE | RATE_LIMITED; serverReason where the product reveals reasons
  console.error(\`License not valid: \${result.reason} \${result.serverReason ?? ''}\`);
  process.exit(1);
}
console.log(\`License \${result.status}\`, result.terms.features);`,
    },
    {
      id: 'java',
      title: 'Java 17+ Paper/Spigot plugin (license-client.jar, no dependencies): MyPlugin.java',
      code: `// Shade license-client.jar (relocate dev.licensing.client), put jwks.json (above) in
// src/main/resources and "license-key: <the buyer's key>" in config.yml.
import dev.licensing.client.LicenseClient;
import dev.licensing.client.MachineId;
import dev.licensing.client.PinnedKeys;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.bukkit.plugin.java.JavaPlugin;

public final class MyPlugin extends JavaPlugin {
    @Override
    public void onEnable() {
        String licenseKey = getConfig().getString("license-key");
        if (licenseKey == null) {
            getLogger().severe("Set license-key in config.yml");
            getServer().getPluginManager().disablePlugin(this);
            return;
        }
        try (InputStream jwks = getResource("jwks.json")) {
            PinnedKeys keys = new PinnedKeys(new String(jwks.readAllBytes(), StandardCharsets.UTF_8));
            LicenseClient client = new LicenseClient("${serviceUrl}", keys,
                    getDataFolder().toPath().resolve("license-cache.json"), 72, Duration.ofSeconds(10));
            // A random id kept in the plugin's folder: the same across restarts and panel moves.
            String machineId = MachineId.of(getDataFolder().toPath().resolve("machine-id"));
            // validateAsync: the network call never blocks the server's main thread.
            client.validateAsync(licenseKey, "${productId}", machineId).thenAccept(result ->
                    getServer().getScheduler().runTask(this, () -> { // back on the main thread
                        if (result.isValid()) {
                            getLogger().info("License: " + result);
                        } else {
                            getLogger().severe("License: " + result); // e.g. INVALID REJECTED
                            getServer().getPluginManager().disablePlugin(this);
                        }
                    }));
        } catch (IOException | RuntimeException e) {
            getLogger().severe("Cannot check the license: " + e);
            getServer().getPluginManager().disablePlugin(this);
        }
    }
}`,
    },
  ];
}
