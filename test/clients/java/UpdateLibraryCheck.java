// Drives the Java library's updates as a plugin would (test/clients/java-library.test.ts runs it
// with `java -cp license-client.jar UpdateLibraryCheck.java URL JWKS_FILE DIR`, against a fake
// service whose answer depends on the hwid): one line per call.
import dev.licensing.client.LicenseClient;
import dev.licensing.client.PinnedKeys;
import dev.licensing.client.UpdateCheck;
import dev.licensing.client.UpdateDownload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

public class UpdateLibraryCheck {
    public static void main(String[] args) throws Exception {
        PinnedKeys keys = new PinnedKeys(Files.readString(Path.of(args[1])));
        LicenseClient client = new LicenseClient(args[0], keys, null, 0, Duration.ofMillis(500));
        Path dir = Path.of(args[2]);
        try {
            client.downloadUpdate(dir.resolve("none.jar"));
        } catch (IllegalStateException e) {
            System.out.println("no-check " + e.getMessage());
        }
        for (String hwid : new String[] {"plain", "stamped-deflated", "stamped-other-license", "refused", "gone", "stall"}) {
            UpdateCheck check = client.checkForUpdate("L", "P", hwid, "1.0.0", "beta");
            Path target = dir.resolve(hwid).resolve("plugin.jar");
            long started = System.nanoTime();
            UpdateDownload download = client.downloadUpdate(target);
            long millis = (System.nanoTime() - started) / 1_000_000;
            System.out.println(hwid + " " + check + " update=" + check.update() + " current=" + check.currentStatus().orElse("-")
                    + " | " + download.status() + " " + download.reason() + " " + download.serverReason() + " stamped=" + download.stamped()
                    + " written=" + Files.exists(target) + " left=" + (Files.exists(target.getParent()) ? Files.list(target.getParent()).count() : 0)
                    + (hwid.equals("stall") ? " within-2s=" + (millis < 2_000) : ""));
        }
        System.out.println("up-to-date " + client.checkForUpdate("L", "P", "plain", "2.0.0"));
    }
}
