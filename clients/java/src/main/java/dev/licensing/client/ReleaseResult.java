package dev.licensing.client;

import java.util.List;

/**
 * The outcome of {@link SelfRelease#release}: RELEASED (the named hwid/IP was bound and is
 * free now), NOT_BOUND (nothing named was bound), or INVALID with a reason. On success
 * {@code selfReleasesLeft} says how many more the rolling 30 days allow; RATE_LIMITED carries
 * the wait ({@code retryAfterSeconds}, {@code retryAtEpochMillis}) and the service's
 * {@code message} naming the limit. The answer is not signed: a forged one can only make the
 * client believe a machine was freed.
 */
public record ReleaseResult(Status status, Reason reason, List<String> releasedIps, List<String> releasedHwids,
        long selfReleasesLeft, long retryAfterSeconds, long retryAtEpochMillis, String message) {
    public enum Status { RELEASED, NOT_BOUND, INVALID }

    /**
     * NOT_FOUND: unknown key or product; NOT_ENABLED: the vendor does not allow it; BLOCKED: the
     * vendor blocked this machine (its IP or the named hwid); FORBIDDEN: another 403 (see message);
     * RATE_LIMITED: the limit is used up.
     */
    public enum Reason { NOT_FOUND, NOT_ENABLED, BLOCKED, FORBIDDEN, RATE_LIMITED, BAD_REQUEST, UNREACHABLE }

    static ReleaseResult invalid(Reason reason) {
        return new ReleaseResult(Status.INVALID, reason, List.of(), List.of(), 0, 0, 0, null);
    }

    static ReleaseResult refused(Reason reason, String message) {
        return new ReleaseResult(Status.INVALID, reason, List.of(), List.of(), 0, 0, 0, message);
    }

    static ReleaseResult rateLimited(long retryAfterSeconds, String message) {
        return new ReleaseResult(Status.INVALID, Reason.RATE_LIMITED, List.of(), List.of(), 0, retryAfterSeconds,
                System.currentTimeMillis() + retryAfterSeconds * 1000, message);
    }

    /**
     * The line the command-line program prints, also what a plugin can show the buyer:
     * "RELEASED; 2 self-releases left in the rolling 30 days", or "INVALID RATE_LIMITED
     * &lt;which limit&gt;; try again after &lt;ISO time&gt; (in 30 days)", or "INVALID &lt;reason&gt;".
     */
    @Override
    public String toString() {
        if (status != Status.INVALID) {
            return status + "; " + selfReleasesLeft + " self-release" + (selfReleasesLeft == 1 ? "" : "s") + " left in the rolling 30 days";
        }
        if (reason != Reason.RATE_LIMITED) return "INVALID " + reason;
        String limit = message != null ? message : "Too many requests from this address";
        return "INVALID RATE_LIMITED " + limit + "; try again after " + ValidationResult.iso(retryAtEpochMillis) + " (in " + describeWait(retryAfterSeconds) + ")";
    }

    /** "29 days", "5 hours", "12 minutes": a wait in its largest whole unit, rounded up. */
    public static String describeWait(long seconds) {
        long[] sizes = {86_400, 3_600, 60};
        String[] names = {"day", "hour", "minute"};
        for (int i = 0; i < sizes.length; i++) {
            if (seconds >= sizes[i]) {
                long n = (seconds + sizes[i] - 1) / sizes[i];
                return n + " " + names[i] + (n == 1 ? "" : "s");
            }
        }
        long n = Math.max(1, seconds);
        return n + " second" + (n == 1 ? "" : "s");
    }
}
