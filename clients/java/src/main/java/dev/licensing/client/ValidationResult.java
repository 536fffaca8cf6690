package dev.licensing.client;

/** The outcome of {@link LicenseClient#validate}: VALID, VALID_OFFLINE or INVALID with a reason. */
public record ValidationResult(Status status, Reason reason, long retryAfterSeconds) {
    public enum Status { VALID, VALID_OFFLINE, INVALID }

    public enum Reason { REJECTED, UNVERIFIED, UNREACHABLE, RATE_LIMITED }

    static ValidationResult of(Status status) {
        return new ValidationResult(status, null, 0);
    }

    static ValidationResult invalid(Reason reason, long retryAfterSeconds) {
        return new ValidationResult(Status.INVALID, reason, retryAfterSeconds);
    }

    /** Whether the software may run. */
    public boolean isValid() {
        return status != Status.INVALID;
    }

    /** The line the command-line program prints. */
    @Override
    public String toString() {
        return status == Status.INVALID ? "INVALID " + reason : status.name();
    }
}
