package dev.licensing.client;

import java.util.Optional;

/**
 * The outcome of {@link LicenseClient#checkForUpdate}: valid with the newest release the
 * license may have ({@link #latest()}, signed by the service) and whether it is an update
 * for the version named, or not valid with a reason. {@link #currentStatus()} (the named
 * version's status: published, deprecated, archived) is the one part the service does not sign.
 */
public final class UpdateCheck {
    /** REJECTED: a genuine answer said the license is not valid; UNVERIFIED: no genuine answer for this request. */
    public enum Reason { REJECTED, UNVERIFIED, UNREACHABLE, RATE_LIMITED }

    /** The newest release the license may have; {@code sha256} is the release's own file's (a stamped jar's bytes differ). */
    public record Latest(String version, String sha256, long size, long publishedAtEpochMillis) {}

    /** What was asked, so {@link LicenseClient#downloadUpdate} fetches exactly the checked version. */
    record Request(String licenseId, String productId, String hwid, String version, String channel) {}

    private final Reason reason;
    private final long retryAfterSeconds;
    private final Latest latest;
    private final String currentStatus;
    private final boolean update;
    private final Request request;

    private UpdateCheck(Reason reason, long retryAfterSeconds, Latest latest, String currentStatus, boolean update, Request request) {
        this.reason = reason;
        this.retryAfterSeconds = retryAfterSeconds;
        this.latest = latest;
        this.currentStatus = currentStatus;
        this.update = update;
        this.request = request;
    }

    static UpdateCheck answered(Latest latest, String currentStatus, Request request) {
        boolean update = latest != null && !latest.version().equals(request.version());
        return new UpdateCheck(null, 0, latest, currentStatus, update, request);
    }

    static UpdateCheck refused(Reason reason, long retryAfterSeconds) {
        return new UpdateCheck(reason, retryAfterSeconds, null, null, false, null);
    }

    /** Whether a genuine answer said the license is valid. */
    public boolean valid() {
        return reason == null;
    }

    /** Why not valid (empty when valid). */
    public Optional<Reason> reason() {
        return Optional.ofNullable(reason);
    }

    /** RATE_LIMITED: how long the service asks to wait. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The newest release the license may have (empty: none, or not valid). */
    public Optional<Latest> latest() {
        return Optional.ofNullable(latest);
    }

    /** The named version's status, as the service answered it (not signed); empty when unknown or none named. */
    public Optional<String> currentStatus() {
        return Optional.ofNullable(currentStatus);
    }

    /** {@link #latest()} exists and is not the version named in the check. */
    public boolean update() {
        return update;
    }

    Request request() {
        return request;
    }

    /** The line the command line prints: UPDATE &lt;version&gt; &lt;sha256&gt;, UP_TO_DATE [&lt;version&gt;], or INVALID &lt;why&gt;. */
    @Override
    public String toString() {
        if (reason != null) return "INVALID " + reason;
        if (update) return "UPDATE " + latest.version() + " " + latest.sha256();
        return latest != null ? "UP_TO_DATE " + latest.version() : "UP_TO_DATE";
    }
}
