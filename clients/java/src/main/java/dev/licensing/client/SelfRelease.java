package dev.licensing.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Frees a machine of a license with the key alone ({@code POST /licenses/release}), when the
 * vendor allows self-service releases: what a plugin calls from a {@code /license release}
 * command before the server moves. Redirects are not followed.
 */
public final class SelfRelease {
    /** The service's two 403 answers (its API reference): which one it is decides the reason. */
    private static final Map<String, ReleaseResult.Reason> FORBIDDEN_REASONS = Map.of(
            "Blocked", ReleaseResult.Reason.BLOCKED,
            "Self-service release is not enabled for this license", ReleaseResult.Reason.NOT_ENABLED);

    private SelfRelease() {}

    /** Frees {@code hwid} and/or {@code ip} (either may be null, not both). */
    public static ReleaseResult release(String url, String licenseId, String productId, String hwid, String ip, Duration timeout) {
        if (hwid == null && ip == null) throw new IllegalArgumentException("name a hwid or an ip to release");
        StringBuilder body = new StringBuilder("{\"licenseId\":").append(Json.quote(licenseId))
                .append(",\"productId\":").append(Json.quote(productId));
        if (hwid != null) body.append(",\"hwid\":").append(Json.quote(hwid));
        if (ip != null) body.append(",\"ip\":").append(Json.quote(ip));
        body.append('}');
        HttpResponse<String> response;
        try {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + "/licenses/release"))
                    .timeout(timeout).header("content-type", "application/json").header("accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return ReleaseResult.invalid(ReleaseResult.Reason.UNREACHABLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ReleaseResult.invalid(ReleaseResult.Reason.UNREACHABLE);
        }
        int status = response.statusCode();
        if (status == 200) {
            try {
                Map<String, Object> answer = Json.parseObject(response.body());
                List<String> ips = strings(answer.get("releasedIps"));
                List<String> hwids = strings(answer.get("releasedHwids"));
                long left = answer.get("selfReleasesLeft") instanceof Long n ? n : 0;
                ReleaseResult.Status outcome = ips.isEmpty() && hwids.isEmpty() ? ReleaseResult.Status.NOT_BOUND : ReleaseResult.Status.RELEASED;
                return new ReleaseResult(outcome, null, ips, hwids, left, 0, 0, null);
            } catch (RuntimeException e) {
                return ReleaseResult.invalid(ReleaseResult.Reason.UNREACHABLE); // not the service's answer
            }
        }
        if (status == 404) return ReleaseResult.invalid(ReleaseResult.Reason.NOT_FOUND);
        if (status == 403) {
            String message = errorMessage(response.body());
            return ReleaseResult.refused(FORBIDDEN_REASONS.getOrDefault(message == null ? "" : message, ReleaseResult.Reason.FORBIDDEN), message);
        }
        if (status == 429) {
            long seconds = response.headers().firstValue("retry-after").map(LicenseClient::parseSeconds).orElse(60L);
            return ReleaseResult.rateLimited(seconds, errorMessage(response.body()));
        }
        if (status >= 400 && status < 500) return ReleaseResult.invalid(ReleaseResult.Reason.BAD_REQUEST);
        return ReleaseResult.invalid(ReleaseResult.Reason.UNREACHABLE);
    }

    /** The service's {"error": "..."} (a bare 429 from the request limiter, or a proxy's 403, is not: null). */
    private static String errorMessage(String body) {
        try {
            return Json.parseObject(body).get("error") instanceof String s ? s : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<String> strings(Object value) {
        if (!(value instanceof List<?> list)) throw new IllegalArgumentException("not a list");
        List<String> out = new ArrayList<>();
        for (Object item : list) out.add((String) item);
        return List.copyOf(out);
    }
}
