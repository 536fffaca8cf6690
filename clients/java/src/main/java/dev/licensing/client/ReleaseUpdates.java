package dev.licensing.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Updates: the check asks {@code POST /releases/latest} with a fresh nonce and trusts only the
 * signed answer (typ release-check); the download fetches the checked version from
 * {@code POST /releases/download} into a temporary file beside the target, hashing while it
 * streams, and moves it into place only when the bytes are the checked release's.
 *
 * <p>What is checked against what (docs/client-integration.md "Updates"): the bytes hash to
 * X-Release-Sha256 (not signed); X-Release-Version is the checked version; and the bytes are
 * the release's own file (sha256 = the signed latest.sha256), or a jar the service stamped for
 * this download whose META-INF/LICENSING-DOWNLOAD.jws, signed by a pinned key (typ download),
 * names this license, the download and the signed latest.sha256 as its release's file.
 */
final class ReleaseUpdates {
    static final String DOWNLOAD_ENTRY = "META-INF/LICENSING-DOWNLOAD.jws";
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final int MAX_ENTRY_BYTES = 64 * 1024;
    private static final int MAX_ERROR_BYTES = 64 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String baseUrl;
    private final PinnedKeys keys;
    private final HttpClient http;
    private final Duration timeout;

    ReleaseUpdates(String baseUrl, PinnedKeys keys, HttpClient http, Duration timeout) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.keys = keys;
        this.http = http;
        this.timeout = timeout;
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }

    /** The request's JSON; null fields are left out. */
    private static String json(Map<String, String> fields) {
        StringBuilder out = new StringBuilder("{");
        fields.forEach((name, value) -> {
            if (value == null) return;
            if (out.length() > 1) out.append(',');
            out.append(Json.quote(name)).append(':').append(Json.quote(value));
        });
        return out.append('}').toString();
    }

    private static Map<String, String> fields(String... pairs) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) out.put(pairs[i], pairs[i + 1]);
        return out;
    }

    UpdateCheck check(UpdateCheck.Request request) {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String nonce = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        String body = json(fields("licenseId", request.licenseId(), "productId", request.productId(), "hwid", request.hwid(),
                "version", request.version(), "channel", request.channel(), "nonce", nonce));
        HttpResponse<String> response;
        try {
            response = http.send(post("/releases/latest", body).header("accept", "application/json")
                    // the kids this copy pins: the service signs with one of them
                    .header("receipt-key-ids", String.join(", ", keys.kids())).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return UpdateCheck.refused(UpdateCheck.Reason.UNREACHABLE, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UpdateCheck.refused(UpdateCheck.Reason.UNREACHABLE, 0);
        }
        int status = response.statusCode();
        if (status >= 500) return UpdateCheck.refused(UpdateCheck.Reason.UNREACHABLE, 0);
        if (status == 429) return UpdateCheck.refused(UpdateCheck.Reason.RATE_LIMITED, retryAfter(response));
        String jws = response.headers().firstValue("validation-receipt").orElse(null);
        Map<String, Object> signed = jws == null ? null : keys.verify(jws, "release-check");
        Map<String, Object> answer;
        try {
            answer = Json.parseObject(response.body());
        } catch (RuntimeException e) {
            answer = null;
        }
        UpdateCheck unverified = UpdateCheck.refused(UpdateCheck.Reason.UNVERIFIED, 0);
        if (signed == null || status != 200 || answer == null) return unverified;
        // The signed answer must repeat this request (a replayed or another machine's answer does not).
        if (!request.licenseId().equals(signed.get("licenseId")) || !request.productId().equals(signed.get("productId"))
                || !Objects.equals(request.hwid(), signed.get("hwid")) || !nonce.equals(signed.get("nonce"))) return unverified;
        if (!(signed.get("valid") instanceof Boolean valid) || !(signed.get("timestampEpochMillis") instanceof Long) || !valid.equals(answer.get("valid"))) {
            return unverified;
        }
        if (!signed.containsKey("latest")) return unverified;
        UpdateCheck.Latest latest = null;
        if (signed.get("latest") != null) {
            latest = readLatest(signed.get("latest"));
            if (latest == null) return unverified;
        }
        if (!valid) return UpdateCheck.refused(UpdateCheck.Reason.REJECTED, 0);
        String current = answer.get("current") instanceof Map<?, ?> c && c.get("status") instanceof String s ? s : null;
        return UpdateCheck.answered(latest, current, request);
    }

    private static UpdateCheck.Latest readLatest(Object value) {
        if (!(value instanceof Map<?, ?> m)) return null;
        if (!(m.get("version") instanceof String version) || !(m.get("sha256") instanceof String sha256) || !SHA256.matcher(sha256).matches()) return null;
        if (!(m.get("size") instanceof Long size) || !(m.get("publishedAtEpochMillis") instanceof Long published)) return null;
        return new UpdateCheck.Latest(version, sha256, size, published);
    }

    /** Writes the checked release to {@code path}; throws only for the file system's errors. */
    UpdateDownload download(UpdateCheck check, Path path) throws IOException {
        if (!check.valid()) {
            UpdateCheck.Reason reason = check.reason().orElseThrow();
            if (reason == UpdateCheck.Reason.RATE_LIMITED) return UpdateDownload.rateLimited(check.retryAfterSeconds());
            return UpdateDownload.invalid(UpdateDownload.Reason.valueOf(reason.name()));
        }
        UpdateCheck.Latest latest = check.latest().orElse(null);
        if (latest == null) return UpdateDownload.invalid(UpdateDownload.Reason.NO_RELEASE);
        UpdateCheck.Request request = check.request();
        String body = json(fields("licenseId", request.licenseId(), "productId", request.productId(), "hwid", request.hwid(),
                "version", latest.version(), "channel", request.channel()));
        HttpResponse<InputStream> response;
        try {
            // The timeout bounds the wait for the answer's headers; then the watchdog the wait for each next bytes.
            response = http.send(post("/releases/download", body).header("accept", "application/java-archive, application/octet-stream, application/json").build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            return UpdateDownload.invalid(UpdateDownload.Reason.UNREACHABLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UpdateDownload.invalid(UpdateDownload.Reason.UNREACHABLE);
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) return failed(response, in);
            String sentSha256 = response.headers().firstValue("x-release-sha256").orElse("");
            if (!latest.version().equals(response.headers().firstValue("x-release-version").orElse(null)) || !SHA256.matcher(sentSha256).matches()) {
                return UpdateDownload.invalid(UpdateDownload.Reason.UNVERIFIED);
            }
            Path target = path.toAbsolutePath().normalize();
            Path parent = target.getParent();
            Files.createDirectories(parent);
            Path temp = Files.createTempFile(parent, "." + target.getFileName() + ".", ".part");
            try {
                MessageDigest digest = sha256();
                long size = 0;
                try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                        Watchdog watchdog = new Watchdog(in, timeout)) {
                    byte[] buffer = new byte[64 * 1024];
                    while (true) {
                        int n;
                        try {
                            n = in.read(buffer);
                        } catch (IOException e) {
                            return UpdateDownload.invalid(UpdateDownload.Reason.UNREACHABLE); // cut off, or stalled and closed by the watchdog
                        }
                        if (n < 0) break;
                        watchdog.progress();
                        digest.update(buffer, 0, n);
                        ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
                        while (bytes.hasRemaining()) out.write(bytes);
                        size += n;
                    }
                    out.force(true); // on disk before the move
                }
                String sha256 = HexFormat.of().formatHex(digest.digest());
                if (!sha256.equals(sentSha256)) return UpdateDownload.invalid(UpdateDownload.Reason.UNVERIFIED);
                String downloadId = response.headers().firstValue("x-download-id").orElse(null);
                boolean stamped = !sha256.equals(latest.sha256());
                if (stamped && !stampedForThis(temp, request.licenseId(), latest.sha256(), downloadId)) {
                    return UpdateDownload.invalid(UpdateDownload.Reason.UNVERIFIED);
                }
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
                return new UpdateDownload(UpdateDownload.Status.DOWNLOADED, null, null, 0, latest.version(), target, sha256, size,
                        latest.sha256(), stamped, downloadId);
            } finally {
                Files.deleteIfExists(temp); // gone already after the move
            }
        }
    }

    /**
     * Closes the body when no bytes came for the timeout (the request's timeout covers only the
     * wait for the headers; closing the stream ends a blocked read with an IOException). Its
     * thread belongs to this one download, so nothing outlives it (a plugin reload leaks nothing).
     */
    private static final class Watchdog implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "license-client-download-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        private volatile long lastProgress = System.nanoTime();

        Watchdog(InputStream body, Duration idle) {
            long every = Math.max(20, idle.toMillis() / 4);
            timer.scheduleWithFixedDelay(() -> {
                if (System.nanoTime() - lastProgress < idle.toNanos()) return;
                try {
                    body.close();
                } catch (IOException e) {
                    // closed already
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }

        void progress() {
            lastProgress = System.nanoTime();
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    /** A jar stamped for this download: its signed entry names this license, the download and the checked release's file. */
    private boolean stampedForThis(Path file, String licenseId, String releaseSha256, String downloadId) {
        String jws;
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry entry = zip.getEntry(DOWNLOAD_ENTRY);
            if (entry == null || entry.getSize() > MAX_ENTRY_BYTES) return false;
            try (InputStream in = zip.getInputStream(entry)) {
                jws = new String(in.readNBytes(MAX_ENTRY_BYTES), StandardCharsets.UTF_8);
            }
        } catch (IOException | RuntimeException e) {
            return false; // not a readable jar: nothing signed to trust
        }
        Map<String, Object> payload = keys.verify(jws, "download");
        if (payload == null || !licenseId.equals(payload.get("licenseId")) || !releaseSha256.equals(payload.get("sha256"))) return false;
        if (!(payload.get("downloadId") instanceof String signedId)) return false;
        return downloadId == null || signedId.equals(downloadId);
    }

    /** A refusal (403: the validation body), a vanished release (404), a rate limit or an outage. */
    private static UpdateDownload failed(HttpResponse<InputStream> response, InputStream in) {
        int status = response.statusCode();
        if (status == 403) {
            String reason = null;
            try {
                reason = LicenseTerms.reasonCode(Json.parseObject(new String(in.readNBytes(MAX_ERROR_BYTES), StandardCharsets.UTF_8)).get("reason"));
            } catch (IOException | RuntimeException e) {
                // no body to read: a refusal without a reason
            }
            return UpdateDownload.rejected(reason);
        }
        if (status == 404) return UpdateDownload.invalid(UpdateDownload.Reason.NOT_FOUND);
        if (status == 429) return UpdateDownload.rateLimited(retryAfter(response));
        if (status >= 500) return UpdateDownload.invalid(UpdateDownload.Reason.UNREACHABLE);
        return UpdateDownload.invalid(UpdateDownload.Reason.UNVERIFIED); // a redirect or another answer the service does not give
    }

    private static long retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("retry-after").map(LicenseClient::parseSeconds).orElse(60L);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this Java runtime", e);
        }
    }
}
