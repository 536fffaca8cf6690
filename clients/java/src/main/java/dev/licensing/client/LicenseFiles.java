package dev.licensing.client;

import java.util.List;
import java.util.Map;

/** Verifies offline license files (a compact JWS with typ license-file) against pinned keys. */
public final class LicenseFiles {
    private LicenseFiles() {}

    /** Null when the file is valid for this machine, else the reason (MALFORMED, BAD_SIGNATURE, PRODUCT_MISMATCH, EXPIRED, FILE_EXPIRED, HWID_NOT_ALLOWED). */
    public static String invalidReason(String fileContent, PinnedKeys keys, String productId, String hwid, long now) {
        String jws = extractJws(fileContent);
        if (jws == null || jws.split("\\.", -1).length != 3) return "MALFORMED";
        Map<String, Object> p = keys.verify(jws, "license-file");
        if (p == null) return "BAD_SIGNATURE";
        if (!productId.equals(p.get("productId"))) return "PRODUCT_MISMATCH";
        if (p.get("expiresAtEpochMillis") instanceof Long expires && now >= expires) return "EXPIRED";
        if (!(p.get("validUntilEpochMillis") instanceof Long until) || now >= until) return "FILE_EXPIRED";
        if (hwid != null && p.get("maxHwids") instanceof Long max && p.get("usedHwids") instanceof List<?> used && !used.isEmpty()) {
            if (!used.contains(hwid) && used.size() >= max) return "HWID_NOT_ALLOWED";
        }
        return null;
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
