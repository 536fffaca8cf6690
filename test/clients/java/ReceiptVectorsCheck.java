// Verifies receipts with the Java library's PinnedKeys.verifyReceipt (test/clients/batch-vectors.test.ts
// runs it with `java -cp license-client.jar ReceiptVectorsCheck.java JWKS_FILE RECEIPTS_FILE`,
// one receipt a line): prints per receipt `INVALID`, or `VALID <hwid> <salt or ->`.
import dev.licensing.client.PinnedKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

public class ReceiptVectorsCheck {
    public static void main(String[] args) throws Exception {
        PinnedKeys keys = new PinnedKeys(Files.readString(Path.of(args[0])));
        for (String receipt : Files.readAllLines(Path.of(args[1]))) {
            Map<String, Object> claims = keys.verifyReceipt(receipt);
            System.out.println(claims == null ? "INVALID" : "VALID " + claims.get("hwid") + " " + claims.getOrDefault("salt", "-"));
        }
    }
}
