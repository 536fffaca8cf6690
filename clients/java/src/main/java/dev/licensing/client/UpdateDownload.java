package dev.licensing.client;

import java.nio.file.Path;

/**
 * The outcome of {@link LicenseClient#downloadUpdate}: DOWNLOADED (the file at {@code path} is
 * the checked release: {@code sha256} of its bytes, {@code releaseSha256} the signed sha256 of
 * the release's own file, equal unless the service {@code stamped} the jar for this download),
 * or INVALID with a reason, and then nothing was written.
 */
public record UpdateDownload(Status status, Reason reason, String serverReason, long retryAfterSeconds,
        String version, Path path, String sha256, long size, String releaseSha256, boolean stamped, String downloadId) {
    public enum Status { DOWNLOADED, INVALID }

    /**
     * REJECTED: the service refused (403; {@code serverReason} where the vendor reveals reasons,
     * e.g. RELEASE_NOT_ALLOWED), or the check said the license is not valid; NO_RELEASE: the check
     * found none this license may have; NOT_FOUND: the checked version is gone (archived since);
     * UNVERIFIED: the bytes are not the checked release's, or the check was not genuine.
     */
    public enum Reason { REJECTED, UNVERIFIED, UNREACHABLE, RATE_LIMITED, NO_RELEASE, NOT_FOUND }

    static UpdateDownload invalid(Reason reason) {
        return new UpdateDownload(Status.INVALID, reason, null, 0, null, null, null, 0, null, false, null);
    }

    static UpdateDownload rejected(String serverReason) {
        return new UpdateDownload(Status.INVALID, Reason.REJECTED, serverReason, 0, null, null, null, 0, null, false, null);
    }

    static UpdateDownload rateLimited(long retryAfterSeconds) {
        return new UpdateDownload(Status.INVALID, Reason.RATE_LIMITED, null, retryAfterSeconds, null, null, null, 0, null, false, null);
    }

    /** Whether the file was written. */
    public boolean downloaded() {
        return status == Status.DOWNLOADED;
    }

    /** The line the command line prints: DOWNLOADED &lt;version&gt; &lt;path&gt;, or INVALID &lt;why&gt; [&lt;the service's reason&gt;]. */
    @Override
    public String toString() {
        if (status == Status.DOWNLOADED) return "DOWNLOADED " + version + " " + path;
        return "INVALID " + reason + (serverReason == null ? "" : " " + serverReason);
    }
}
