package dev.licensing.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Validates a license with a fresh nonce per call and trusts only answers whose receipt is
 * signed by a pinned key and repeats this request. The last genuine success is cached (the
 * receipt itself, so an edited cache fails verification) and keeps the software running for
 * {@code graceHours} while the service cannot be reached.
 *
 * <p>{@link #validate} blocks for up to the timeout: call it off the server's main thread, or
 * use {@link #validateAsync}. What the client tolerates (an unreadable or unwritable cache, a
 * cached receipt from the future) is reported through {@link System.Logger} under the name
 * {@code dev.licensing.client}; it never turns a result into an exception.
 */
public final class LicenseClient {
    private static final long HOUR_MS = 3_600_000L;
    private static final long CLOCK_SKEW_MS = 5 * 60_000L;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final System.Logger LOG = System.getLogger("dev.licensing.client");

    private final String baseUrl;
    private final URI validateUri;
    private final PinnedKeys keys;
    private final Path cacheFile;
    private final long graceMs;
    private final Duration timeout;
    private final HttpClient http;
    private volatile long quietUntil;
    /** The terms of the last VALID or VALID_OFFLINE answer (none after an INVALID one). */
    private volatile LicenseTerms lastTerms = LicenseTerms.NONE;
    private final ReleaseUpdates updates;
    /** The last checkForUpdate answer: what downloadUpdate(Path) fetches. */
    private volatile UpdateCheck lastCheck;

    /**
     * @param url        the licensing service, e.g. https://licensing.example.com
     * @param keys       the JWK Set shipped with the application
     * @param cacheFile  where the last genuine success is kept (null: no offline grace)
     * @param graceHours how long a cached success counts while the service is unreachable (0 disables)
     * @param timeout    per-request timeout
     */
    public LicenseClient(String url, PinnedKeys keys, Path cacheFile, double graceHours, Duration timeout) {
        if (graceHours < 0 || Double.isNaN(graceHours)) throw new IllegalArgumentException("graceHours must be >= 0");
        this.baseUrl = url;
        this.validateUri = URI.create(url.replaceAll("/+$", "") + "/licenses/validate");
        this.keys = keys;
        this.cacheFile = cacheFile;
        this.graceMs = (long) (graceHours * HOUR_MS);
        this.timeout = timeout;
        // HTTP/1.1: no h2c upgrade attempt on plain-HTTP URLs (some proxies mishandle it).
        // No redirects: an answer must come from the configured service.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
        this.updates = new ReleaseUpdates(url, keys, http, timeout);
    }

    /**
     * Asks the service for the newest release the license may have in the channel
     * ({@code POST /releases/latest}, a fresh nonce, binding nothing) and trusts only its signed
     * answer: a release-check JWS signed by a pinned key that repeats this request and nonce.
     * Blocks for up to the timeout: call it off the server's main thread.
     *
     * @param hwid    this machine's id, as in validate (null: none sent)
     * @param version the version this copy runs (null: none; then any release is an update)
     * @param channel stable, beta or alpha (null: stable)
     */
    public UpdateCheck checkForUpdate(String licenseId, String productId, String hwid, String version, String channel) {
        UpdateCheck check = updates.check(new UpdateCheck.Request(Objects.requireNonNull(licenseId, "licenseId"),
                Objects.requireNonNull(productId, "productId"), hwid, version, channel));
        lastCheck = check;
        return check;
    }

    /** {@link #checkForUpdate(String, String, String, String, String)} in the stable channel. */
    public UpdateCheck checkForUpdate(String licenseId, String productId, String hwid, String version) {
        return checkForUpdate(licenseId, productId, hwid, version, null);
    }

    /**
     * Downloads the release {@code check} found to {@code path}: streamed into a temporary file
     * beside it while its sha256 is computed, checked against X-Release-Sha256 and the signed
     * check, then moved over {@code path} atomically (nothing is written otherwise). The service
     * decides it exactly as a validation (the machine is bound). Blocks until the file is
     * written: call it off the server's main thread.
     *
     * @throws IOException only for the file system's errors (the folder cannot be written)
     */
    public UpdateDownload downloadUpdate(Path path, UpdateCheck check) throws IOException {
        return updates.download(Objects.requireNonNull(check, "check"), path);
    }

    /** {@link #downloadUpdate(Path, UpdateCheck)} with this client's last {@link #checkForUpdate} answer. */
    public UpdateDownload downloadUpdate(Path path) throws IOException {
        UpdateCheck check = lastCheck;
        if (check == null) throw new IllegalStateException("downloadUpdate needs a checkForUpdate first");
        return downloadUpdate(path, check);
    }

    /** Frees this machine's slot ({@code hwid} and/or {@code ip}): see {@link SelfRelease}. */
    public ReleaseResult release(String licenseId, String productId, String hwid, String ip) {
        return SelfRelease.release(baseUrl, licenseId, productId, hwid, ip, timeout);
    }

    /** The effective features of the last VALID or VALID_OFFLINE result (empty before one, or after an INVALID one). */
    public Map<String, Object> features() {
        return lastTerms.features();
    }

    /** One feature of the last VALID or VALID_OFFLINE result (empty: not granted). Works offline from the cache. */
    public Optional<Object> feature(String code) {
        return lastTerms.feature(code);
    }

    /** Whether the last VALID or VALID_OFFLINE result grants the feature as {@code true}. */
    public boolean isEnabled(String code) {
        return lastTerms.isEnabled(code);
    }

    /**
     * The cached genuine success alone, without asking the service (VALID_OFFLINE within the
     * grace hours, else INVALID UNREACHABLE): gates features at start-up without the network.
     */
    public ValidationResult validateOffline(String licenseId, String productId, String hwid) {
        return remember(fallback(licenseId, productId, hwid, ValidationResult.Reason.UNREACHABLE, 0));
    }

    /**
     * Keeps a floating seat: validates now on a daemon thread, then again at least every third
     * of the signed slotTimeoutMinutes (at most {@code longestInterval} apart), and hands each
     * result to {@code onResult} on that thread. {@link KeepAlive#stop} frees the machine.
     */
    public KeepAlive keepAlive(String licenseId, String productId, String hwid, Duration longestInterval, Consumer<ValidationResult> onResult) {
        return new KeepAlive(this, licenseId, productId, hwid, longestInterval, onResult);
    }

    /** {@link #keepAlive(String, String, String, Duration, Consumer)} with at most an hour between validations. */
    public KeepAlive keepAlive(String licenseId, String productId, String hwid, Consumer<ValidationResult> onResult) {
        return keepAlive(licenseId, productId, hwid, Duration.ofHours(1), onResult);
    }

    private ValidationResult remember(ValidationResult result) {
        lastTerms = result.terms();
        return result;
    }

    /** Validates, blocking the calling thread for up to the timeout (never call it on a server's main thread). */
    public ValidationResult validate(String licenseId, String productId, String hwid) {
        return remember(ask(licenseId, productId, hwid));
    }

    private ValidationResult ask(String licenseId, String productId, String hwid) {
        if (System.currentTimeMillis() < quietUntil) return fallback(licenseId, productId, hwid, ValidationResult.Reason.RATE_LIMITED, 0);
        String nonce = newNonce();
        try {
            return interpret(http.send(request(licenseId, productId, hwid, nonce), BODY), licenseId, productId, hwid, nonce);
        } catch (IOException e) {
            return fallback(licenseId, productId, hwid, ValidationResult.Reason.UNREACHABLE, 0); // includes timeouts
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback(licenseId, productId, hwid, ValidationResult.Reason.UNREACHABLE, 0);
        }
    }

    /**
     * Validates without blocking: the future completes (never exceptionally) with the same
     * result {@link #validate} gives. In a Bukkit/Paper plugin, hop back to the main thread
     * with the scheduler before touching the game.
     */
    public CompletableFuture<ValidationResult> validateAsync(String licenseId, String productId, String hwid) {
        if (System.currentTimeMillis() < quietUntil) {
            return CompletableFuture.supplyAsync(() -> remember(fallback(licenseId, productId, hwid, ValidationResult.Reason.RATE_LIMITED, 0)));
        }
        String nonce = newNonce();
        return http.sendAsync(request(licenseId, productId, hwid, nonce), BODY)
                .thenApply(response -> interpret(response, licenseId, productId, hwid, nonce))
                .exceptionally(e -> fallback(licenseId, productId, hwid, ValidationResult.Reason.UNREACHABLE, 0))
                .thenApply(this::remember);
    }

    private static final HttpResponse.BodyHandler<String> BODY = HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8);

    private static String newNonce() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private HttpRequest request(String licenseId, String productId, String hwid, String nonce) {
        String body = "{\"licenseId\":" + Json.quote(licenseId) + ",\"productId\":" + Json.quote(productId)
                + ",\"hwid\":" + Json.quote(hwid) + ",\"nonce\":" + Json.quote(nonce)
                // the batch form: the service signs many answers at once (DECISIONS.md "Batch-signed receipts")
                + ",\"receiptFormat\":\"batch\"}";
        return HttpRequest.newBuilder(validateUri).timeout(timeout)
                .header("content-type", "application/json").header("accept", "application/json")
                // the kids this copy pins: the service signs with one of them (rotation strands no installed copy)
                .header("receipt-key-ids", String.join(", ", keys.kids()))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
    }

    private ValidationResult interpret(HttpResponse<String> response, String licenseId, String productId, String hwid, String nonce) {
        int status = response.statusCode();
        if (status >= 500) return fallback(licenseId, productId, hwid, ValidationResult.Reason.UNREACHABLE, 0);
        if (status == 429) {
            long seconds = response.headers().firstValue("retry-after").map(LicenseClient::parseSeconds).orElse(60L);
            quietUntil = System.currentTimeMillis() + seconds * 1000;
            return fallback(licenseId, productId, hwid, ValidationResult.Reason.RATE_LIMITED, seconds);
        }
        String jws = response.headers().firstValue("validation-receipt").orElse(null);
        Map<String, Object> receipt = genuine(jws, licenseId, productId, hwid, nonce);
        Object answered = bodyValid(response.body());
        if (status != 200 || receipt == null || !receipt.get("valid").equals(answered)) {
            return fallback(licenseId, productId, hwid, ValidationResult.Reason.UNVERIFIED, 0);
        }
        LicenseTerms terms = LicenseTerms.read(receipt);
        if (!Boolean.TRUE.equals(receipt.get("valid"))) {
            clearCache();
            return ValidationResult.rejected(terms.reason().orElse(null));
        }
        writeCache(jws);
        return ValidationResult.of(ValidationResult.Status.VALID, terms);
    }

    /** A Retry-After in seconds (60 when absent or unreadable). */
    static long parseSeconds(String value) {
        try {
            long seconds = Long.parseLong(value.trim());
            return seconds > 0 ? seconds : 60;
        } catch (NumberFormatException e) {
            return 60;
        }
    }

    private static Object bodyValid(String body) {
        try {
            return Json.parseObject(body).get("valid");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The receipt's payload when a pinned key signed it and it answers exactly this request (nonce null: any). */
    private Map<String, Object> genuine(String jws, String licenseId, String productId, String hwid, String nonce) {
        if (jws == null) return null;
        Map<String, Object> payload = keys.verifyReceipt(jws); // either form: a cache may hold today's
        if (payload == null || !(payload.get("valid") instanceof Boolean) || !(payload.get("timestampEpochMillis") instanceof Long)) return null;
        if (!licenseId.equals(payload.get("licenseId")) || !productId.equals(payload.get("productId")) || !hwid.equals(payload.get("hwid"))) return null;
        if (nonce != null && !nonce.equals(payload.get("nonce"))) return null;
        return payload;
    }

    private ValidationResult fallback(String licenseId, String productId, String hwid, ValidationResult.Reason reason, long retryAfter) {
        LicenseTerms cached = cachedSuccess(licenseId, productId, hwid);
        return cached != null ? ValidationResult.of(ValidationResult.Status.VALID_OFFLINE, cached) : ValidationResult.invalid(reason, retryAfter);
    }

    /** The terms of a cached genuine success for this request, young enough and not expired since; else null. */
    private LicenseTerms cachedSuccess(String licenseId, String productId, String hwid) {
        if (cacheFile == null || graceMs == 0) return null;
        try {
            Object jws = Json.parseObject(Files.readString(cacheFile, StandardCharsets.UTF_8)).get("receipt");
            Map<String, Object> payload = jws instanceof String s ? genuine(s, licenseId, productId, hwid, null) : null;
            if (payload == null || !Boolean.TRUE.equals(payload.get("valid"))) return null;
            long now = System.currentTimeMillis();
            long age = now - (Long) payload.get("timestampEpochMillis");
            if (age < -CLOCK_SKEW_MS) LOG.log(Level.WARNING, "cached license receipt is {0} ms in the future: is this machine's clock wrong?", -age);
            LicenseTerms terms = LicenseTerms.read(payload);
            if (!terms.stillRuns(now)) return null; // the license has expired since (and is out of grace)
            return age >= -CLOCK_SKEW_MS && age < graceMs ? terms : null;
        } catch (NoSuchFileException e) {
            return null; // nothing cached yet
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "license cache " + cacheFile + " is unreadable; ignoring it", e);
            return null;
        }
    }

    /** Writes the cache readable by its owner only (0600), atomically: a crash leaves the old file or the new one. */
    private void writeCache(String jws) {
        if (cacheFile == null) return;
        Path temp = null;
        try {
            Path parent = cacheFile.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            temp = Files.createTempFile(parent, ".license-cache-", ".tmp");
            try {
                Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the user's profile protects it
            }
            Files.writeString(temp, "{\"receipt\":" + Json.quote(jws) + "}\n", StandardCharsets.UTF_8);
            try {
                Files.move(temp, cacheFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, cacheFile, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            // A cache that cannot be written only costs the offline grace: the VALID stands.
            LOG.log(Level.WARNING, "cannot write license cache " + cacheFile + "; offline grace unavailable", e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    LOG.log(Level.DEBUG, "cannot remove " + temp, e);
                }
            }
        }
    }

    private void clearCache() {
        if (cacheFile == null) return;
        try {
            Files.deleteIfExists(cacheFile);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot remove license cache " + cacheFile, e); // it still verifies only a genuine receipt
        }
    }
}
