// The Java library's policy API, driven as a plugin would (test/clients/java-library.test.ts
// runs `java -cp license-client.jar TermsCheck.java URL JWKS_FILE CACHE` against a service
// that signs receipts with the policy fields): one fact per line.
import dev.licensing.client.KeepAlive;
import dev.licensing.client.LicenseClient;
import dev.licensing.client.PinnedKeys;
import dev.licensing.client.ReleaseResult;
import dev.licensing.client.ValidationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

public class TermsCheck {
    public static void main(String[] args) throws Exception {
        PinnedKeys keys = new PinnedKeys(Files.readString(Path.of(args[1])));
        Path cache = Path.of(args[2]);
        LicenseClient client = new LicenseClient(args[0], keys, cache, 72, Duration.ofSeconds(10));
        System.out.println("before " + client.features());
        ValidationResult result = client.validate("L", "P", "features");
        System.out.println("validate " + result);
        System.out.println("features " + client.features());
        System.out.println("seats " + client.feature("seats").orElse("none") + " pro " + client.isEnabled("pro") + " missing " + client.feature("missing").isPresent());
        System.out.println("slot " + result.terms().slotTimeoutMinutes().getAsLong() + " expires " + result.terms().expiresAtEpochMillis().isPresent()
                + " grace " + result.terms().graceEndsAtEpochMillis().isPresent() + " reason " + result.terms().reason().orElse("none"));
        System.out.println("interval " + KeepAlive.intervalFor(result.terms(), Duration.ofHours(1)).toMillis());

        LicenseClient offline = new LicenseClient("http://127.0.0.1:1", keys, cache, 72, Duration.ofSeconds(2));
        ValidationResult cached = offline.validateOffline("L", "P", "features");
        System.out.println("offline " + cached + " pro " + offline.isEnabled("pro") + " tier " + offline.feature("tier").orElse("none"));

        System.out.println("grace " + client.validate("L", "P", "grace"));
        ValidationResult rejected = client.validate("L", "P", "rejected");
        System.out.println("rejected " + rejected + " serverReason " + rejected.serverReason() + " pro " + client.isEnabled("pro"));
        ValidationResult old = client.validate("L", "P", "old");
        System.out.println("old " + old + " features " + old.terms().features() + " slot " + old.terms().slotTimeoutMinutes().isPresent());

        List<String> seen = new CopyOnWriteArrayList<>();
        KeepAlive seat = client.keepAlive("L", "P", "seat", Duration.ofSeconds(1), r -> seen.add(r.toString() + "@" + Thread.currentThread().getName()));
        Thread.sleep(3_500);
        ReleaseResult released = seat.stop();
        int rounds = seen.size();
        Thread.sleep(1_200);
        System.out.println("keepAlive rounds " + rounds + " after-stop " + (seen.size() - rounds) + " first " + seen.get(0));
        System.out.println("stop " + released);
    }
}
