// The Java library against the real service with license policies (test/clients/clients.test.ts
// runs `java -cp license-client.jar PolicyCheck.java URL JWKS_FILE CACHE LICENSE PRODUCT HWID LICENSE_FILE`):
// features online, then offline from the cache and from a license file, one fact per line.
import dev.licensing.client.LicenseClient;
import dev.licensing.client.LicenseFiles;
import dev.licensing.client.PinnedKeys;
import dev.licensing.client.ValidationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.TreeMap;

public class PolicyCheck {
    public static void main(String[] args) throws Exception {
        PinnedKeys keys = new PinnedKeys(Files.readString(Path.of(args[1])));
        Path cache = Path.of(args[2]);
        LicenseClient client = new LicenseClient(args[0], keys, cache, 72, Duration.ofSeconds(10));
        ValidationResult result = client.validate(args[3], args[4], args[5]);
        System.out.println("validate " + result + " features " + new TreeMap<>(client.features()) + " pro " + client.isEnabled("pro")
                + " slot " + result.terms().slotTimeoutMinutes().orElse(-1) + " reason " + result.terms().reason().orElse("none"));
        LicenseClient offline = new LicenseClient("http://127.0.0.1:1", keys, cache, 72, Duration.ofSeconds(2));
        ValidationResult cached = offline.validateOffline(args[3], args[4], args[5]);
        System.out.println("offline " + cached + " features " + new TreeMap<>(offline.features()) + " seats " + offline.feature("seats").orElse("none"));
        LicenseFiles.Check file = LicenseFiles.check(Files.readString(Path.of(args[6])), keys, args[4], args[5], System.currentTimeMillis());
        System.out.println("file " + file + " features " + new TreeMap<>(file.terms().features()) + " slot " + file.terms().slotTimeoutMinutes().orElse(-1));
    }
}
