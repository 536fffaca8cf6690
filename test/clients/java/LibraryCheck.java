// Drives the Java library as a plugin would (test/clients/java-library.test.ts runs it with
// `java -cp license-client.jar LibraryCheck.java URL LICENSE PRODUCT JWKS_FILE CACHE`):
// validateAsync on a worker thread while this thread stays free, then one prints per line.
import dev.licensing.client.LicenseClient;
import dev.licensing.client.PinnedKeys;
import dev.licensing.client.ValidationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

public class LibraryCheck {
    public static void main(String[] args) throws Exception {
        PinnedKeys keys = new PinnedKeys(Files.readString(Path.of(args[3])));
        LicenseClient client = new LicenseClient(args[0], keys, Path.of(args[4]), 72, Duration.ofSeconds(10));
        Thread caller = Thread.currentThread();
        CompletableFuture<ValidationResult> future = client.validateAsync(args[1], args[2], "async-machine")
                .thenApply(result -> {
                    System.out.println("completed-on-caller-thread " + (Thread.currentThread() == caller));
                    return result;
                });
        System.out.println("returned-before-answer " + !future.isDone());
        System.out.println("async " + future.get());
        System.out.println("blocking " + client.validate(args[1], args[2], "async-machine"));
    }
}
