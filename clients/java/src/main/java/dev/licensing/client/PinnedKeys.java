package dev.licensing.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Ed25519 public keys the application ships with (a JWK Set), by kid. Never fetched at run time. */
public final class PinnedKeys {
    /** DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519; the 32 key bytes follow. */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private final Map<String, PublicKey> byKid = new LinkedHashMap<>();

    /** Parses a JWK Set ({"keys":[{"kty":"OKP","crv":"Ed25519","x":…,"kid":…}]}). */
    public PinnedKeys(String jwkSetJson) {
        try {
            Object keys = Json.parseObject(jwkSetJson).get("keys");
            if (!(keys instanceof List<?> list)) throw new IllegalArgumentException("the JWK Set has no keys");
            KeyFactory factory = KeyFactory.getInstance("Ed25519");
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> jwk)) continue;
                if (!"OKP".equals(jwk.get("kty")) || !"Ed25519".equals(jwk.get("crv"))) continue;
                if (!(jwk.get("x") instanceof String x) || !(jwk.get("kid") instanceof String kid)) continue;
                byte[] raw;
                try {
                    raw = Base64Url.decode(x);
                } catch (IllegalArgumentException e) {
                    continue; // not a key this client can use
                }
                if (raw.length != 32) continue;
                byte[] der = new byte[SPKI_PREFIX.length + 32];
                System.arraycopy(SPKI_PREFIX, 0, der, 0, SPKI_PREFIX.length);
                System.arraycopy(raw, 0, der, SPKI_PREFIX.length, 32);
                byKid.put(kid, factory.generatePublic(new X509EncodedKeySpec(der)));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available in this Java runtime", e);
        }
        if (byKid.isEmpty()) throw new IllegalArgumentException("the JWK Set has no Ed25519 keys");
    }

    /** The kids of the pinned keys, in the set's order (sent as Receipt-Key-Ids so the service signs with one of them). */
    public List<String> kids() {
        return List.copyOf(byKid.keySet());
    }

    /** The payload of a compact JWS signed by a pinned key with the expected typ, or null. */
    Map<String, Object> verify(String jws, String typ) {
        String[] parts = jws.trim().split("\\.", -1);
        if (parts.length != 3) return null;
        try {
            Map<String, Object> header = Json.parseObject(new String(Base64Url.decode(parts[0]), StandardCharsets.UTF_8));
            if (!"EdDSA".equals(header.get("alg")) || !typ.equals(header.get("typ"))) return null;
            PublicKey key = byKid.get(header.get("kid") instanceof String kid ? kid : "");
            if (key == null) return null;
            Signature signature = Signature.getInstance("Ed25519");
            signature.initVerify(key);
            signature.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!signature.verify(Base64Url.decode(parts[2]))) return null;
            return Json.parseObject(new String(Base64Url.decode(parts[1]), StandardCharsets.UTF_8));
        } catch (RuntimeException | GeneralSecurityException e) {
            return null; // malformed parts, bad base64, bad JSON or a bad signature: not genuine
        }
    }
}
