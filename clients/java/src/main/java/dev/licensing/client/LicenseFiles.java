package dev.licensing.client;

import java.util.List;
import java.util.Map;

/** Verifies offline license files (a compact JWS with typ license-file) against pinned keys. */
public final class LicenseFiles {
    private LicenseFiles() {}

    /**
     * What a license file says for this machine: {@code invalidReason} null when it is valid
     * (else MALFORMED, BAD_SIGNATURE, PRODUCT_MISMATCH, EXPIRED, FILE_EXPIRED, HWID_NOT_ALLOWED);
     * {@code terms} its signed features, expiry and grace end (empty when invalid);
     * {@code inGraceUntilEpochMillis} set when the license has expired and the file still runs
     * in its grace.
     */
    public record Check(String invalidReason, LicenseTerms terms, Long inGraceUntilEpochMillis) {
        public boolean isValid() {
            return invalidReason == null;
        }

        static Check invalid(String reason) {
            return new Check(reason, LicenseTerms.NONE, null);
        }

        /** The line the command line prints: VALID, VALID GRACE <grace end> or INVALID <reason>. */
        @Override
        public String toString() {
            if (invalidReason != null) return "INVALID " + invalidReason;
            return inGraceUntilEpochMillis == null ? "VALID" : "VALID GRACE " + ValidationResult.iso(inGraceUntilEpochMillis);
        }
    }

    /** Null when the file is valid for this machine, else the reason (see {@link Check}). */
    public static String invalidReason(String fileContent, PinnedKeys keys, String productId, String hwid, long now) {
        return check(fileContent, keys, productId, hwid, now).invalidReason();
    }

    /** Verifies the file for this machine ({@code hwid} null: the HWID rule is not checked) at {@code now}. */
    public static Check check(String fileContent, PinnedKeys keys, String productId, String hwid, long now) {
        String jws = extractJws(fileContent);
        if (jws == null || jws.split("\\.", -1).length != 3) return Check.invalid("MALFORMED");
        Map<String, Object> p = keys.verify(jws, "license-file");
        if (p == null) return Check.invalid("BAD_SIGNATURE");
        if (!productId.equals(p.get("productId"))) return Check.invalid("PRODUCT_MISMATCH");
        LicenseTerms terms = LicenseTerms.read(p);
        boolean expired = p.get("expiresAtEpochMillis") instanceof Long expires && now >= expires;
        // A file issued in grace carries the grace end: it keeps running until then, no longer.
        boolean inGrace = expired && terms.graceEndsAtEpochMillis().isPresent() && now < terms.graceEndsAtEpochMillis().getAsLong();
        if (expired && !inGrace) return Check.invalid("EXPIRED");
        if (!(p.get("validUntilEpochMillis") instanceof Long until) || now >= until) return Check.invalid("FILE_EXPIRED");
        List<?> used = p.get("usedHwids") instanceof List<?> list ? list : List.of();
        if (hwid != null && p.get("maxHwids") instanceof Long max && !used.isEmpty()) {
            if (!used.contains(hwid) && used.size() >= max) return Check.invalid("HWID_NOT_ALLOWED");
        }
        // In grace only machines already bound run (as the service answers in grace).
        if (inGrace && hwid != null && !used.contains(hwid)) return Check.invalid("HWID_NOT_ALLOWED");
        return new Check(null, terms, inGrace ? terms.graceEndsAtEpochMillis().getAsLong() : null);
    }

    /** The compact JWS itself, or the service's {"licenseFile": "..."} answer. */
    private static String extractJws(String content) {
        String trimmed = content.trim();
        if (!trimmed.startsWith("{")) return trimmed;
        try {
            return Json.parseObject(trimmed).get("licenseFile") instanceof String s ? s : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
