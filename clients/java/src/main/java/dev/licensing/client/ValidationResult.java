package dev.licensing.client;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The outcome of {@link LicenseClient#validate}: VALID, VALID_OFFLINE or INVALID with a reason.
 * {@code terms} are the signed receipt's (features, expiry, grace end, slot timeout; empty
 * on INVALID); {@code serverReason} is the service's reason for a REJECTED answer where the
 * vendor reveals reasons (e.g. HWID_LIMIT_REACHED), else null.
 */
public record ValidationResult(Status status, Reason reason, long retryAfterSeconds, LicenseTerms terms, String serverReason) {
    public enum Status { VALID, VALID_OFFLINE, INVALID }

    public enum Reason { REJECTED, UNVERIFIED, UNREACHABLE, RATE_LIMITED }

    static ValidationResult of(Status status, LicenseTerms terms) {
        return new ValidationResult(status, null, 0, terms, null);
    }

    static ValidationResult invalid(Reason reason, long retryAfterSeconds) {
        return new ValidationResult(Status.INVALID, reason, retryAfterSeconds, LicenseTerms.NONE, null);
    }

    static ValidationResult rejected(String serverReason) {
        return new ValidationResult(Status.INVALID, Reason.REJECTED, 0, LicenseTerms.NONE, serverReason);
    }

    /** Whether the software may run. */
    public boolean isValid() {
        return status != Status.INVALID;
    }

    /** Whether the license runs in its grace after expiry (a VALID answer that carries a grace end). */
    public boolean inGrace() {
        return status == Status.VALID && terms.graceEndsAtEpochMillis().isPresent();
    }

    /** The line the command-line program prints: VALID, VALID GRACE <grace end>, VALID_OFFLINE, INVALID <why> [<service's reason>]. */
    @Override
    public String toString() {
        if (status == Status.INVALID) return "INVALID " + reason + (serverReason == null ? "" : " " + serverReason);
        if (inGrace()) return "VALID GRACE " + iso(terms.graceEndsAtEpochMillis().getAsLong());
        return status.name();
    }

    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** ISO-8601 in UTC with milliseconds, as the TypeScript client prints it (2026-12-24T10:00:00.000Z). */
    static String iso(long epochMillis) {
        return ISO.format(Instant.ofEpochMilli(epochMillis));
    }
}
