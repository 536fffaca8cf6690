package dev.licensing.client;

import java.util.List;

/**
 * The outcome of {@link SelfRelease#release}: RELEASED (the named hwid/IP was bound and is
 * free now), NOT_BOUND (nothing named was bound), or INVALID with a reason. The answer is
 * not signed: a forged one can only make the client believe a machine was freed.
 */
public record ReleaseResult(Status status, Reason reason, List<String> releasedIps, List<String> releasedHwids,
        long selfReleasesLeft, long retryAfterSeconds) {
    public enum Status { RELEASED, NOT_BOUND, INVALID }

    /** NOT_FOUND: unknown key or product; NOT_ENABLED: the vendor does not allow it; RATE_LIMITED: the limit is used up. */
    public enum Reason { NOT_FOUND, NOT_ENABLED, RATE_LIMITED, BAD_REQUEST, UNREACHABLE }

    static ReleaseResult invalid(Reason reason, long retryAfterSeconds) {
        return new ReleaseResult(Status.INVALID, reason, List.of(), List.of(), 0, retryAfterSeconds);
    }

    /** The line the command-line program prints. */
    @Override
    public String toString() {
        return status == Status.INVALID ? "INVALID " + reason : status.name();
    }
}
