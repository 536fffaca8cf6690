package dev.licensing.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The license terms a signed receipt or license file carries: the effective features, expiry,
 * grace end, slot timeout and (where the vendor reveals reasons) the service's reason. Read
 * the same way from both, so a plugin gates features offline. Older receipts and files
 * without these fields read as "no features, nothing known".
 */
public final class LicenseTerms {
    static final LicenseTerms NONE = new LicenseTerms(Map.of(), null, false, null, null, null);
    private static final Pattern REASON = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

    private final Map<String, Object> features;
    private final Long expiresAt;
    /** The payload has the field (null there: never); an older service's does not. */
    private final boolean expiryTold;
    private final Long graceEndsAt;
    private final Long slotTimeoutMinutes;
    private final String reason;

    private LicenseTerms(Map<String, Object> features, Long expiresAt, boolean expiryTold, Long graceEndsAt, Long slotTimeoutMinutes, String reason) {
        this.features = features;
        this.expiresAt = expiresAt;
        this.expiryTold = expiryTold;
        this.graceEndsAt = graceEndsAt;
        this.slotTimeoutMinutes = slotTimeoutMinutes;
        this.reason = reason;
    }

    /** Reads the terms from a verified payload; anything of the wrong type reads as absent. */
    static LicenseTerms read(Map<String, Object> payload) {
        Map<String, Object> features = new LinkedHashMap<>();
        if (payload.get("features") instanceof Map<?, ?> raw) {
            for (Map.Entry<?, ?> e : raw.entrySet()) {
                Object v = e.getValue();
                if (e.getKey() instanceof String code && (v instanceof Boolean || v instanceof Long || v instanceof Double || v instanceof String)) {
                    features.put(code, v);
                }
            }
        }
        String reason = reasonCode(payload.get("reason"));
        return new LicenseTerms(Collections.unmodifiableMap(features), asLong(payload.get("expiresAtEpochMillis")),
                payload.containsKey("expiresAtEpochMillis"), asLong(payload.get("graceEndsAtEpochMillis")), asLong(payload.get("slotTimeoutMinutes")), reason);
    }

    /** A plain reason code (HWID_LIMIT_REACHED …), else null: the command line prints it on a line of its own. */
    static String reasonCode(Object value) {
        return value instanceof String s && REASON.matcher(s).matches() ? s : null;
    }

    private static Long asLong(Object value) {
        return value instanceof Long n ? n : null;
    }

    /** The effective features (the product's tier with the license's overrides): Boolean, Long, Double or String values. */
    public Map<String, Object> features() {
        return features;
    }

    /** One feature's value, empty when the license does not have it. */
    public Optional<Object> feature(String code) {
        return Optional.ofNullable(features.get(code));
    }

    /** Whether the feature is granted as {@code true} (the usual on/off feature). */
    public boolean isEnabled(String code) {
        return Boolean.TRUE.equals(features.get(code));
    }

    /** When the license expires (empty: never, or not told by an older service). */
    public OptionalLong expiresAtEpochMillis() {
        return expiresAt == null ? OptionalLong.empty() : OptionalLong.of(expiresAt);
    }

    /** Whether the signed payload states the expiry (an empty {@link #expiresAtEpochMillis} then means never). */
    boolean expiryTold() {
        return expiryTold;
    }

    /** Present only while the license is in grace after its expiry: when the grace ends. */
    public OptionalLong graceEndsAtEpochMillis() {
        return graceEndsAt == null ? OptionalLong.empty() : OptionalLong.of(graceEndsAt);
    }

    /** Inactive bindings are released after this many minutes (empty: bindings are permanent, or not told). */
    public OptionalLong slotTimeoutMinutes() {
        return slotTimeoutMinutes == null ? OptionalLong.empty() : OptionalLong.of(slotTimeoutMinutes);
    }

    /** The service's reason (VALID, GRACE, EXPIRED, HWID_LIMIT_REACHED, ...) where the vendor reveals reasons. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /** Whether an answer still counts offline at {@code now}: not expired, or in grace. Older receipts say nothing: yes. */
    boolean stillRuns(long now) {
        if (expiresAt == null || now < expiresAt) return true;
        return graceEndsAt != null && now < graceEndsAt;
    }

    @Override
    public String toString() {
        return "LicenseTerms[features=" + features + ", expiresAt=" + expiresAt + ", graceEndsAt=" + graceEndsAt
                + ", slotTimeoutMinutes=" + slotTimeoutMinutes + ", reason=" + reason + "]";
    }
}
