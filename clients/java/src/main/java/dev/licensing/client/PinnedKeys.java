package dev.licensing.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Ed25519 public keys the application ships with (a JWK Set), by kid. Never fetched at run time. */
public final class PinnedKeys {
    /** DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519; the 32 key bytes follow. */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
    /** Batch-signed receipts: every tree has this depth, so every path is this many 32-byte sibling hashes. */
    private static final int TREE_DEPTH = 10;
    private static final int HASH_BYTES = 32;

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
            if (!signed(parts[0], parts[1], parts[2], typ)) return null;
            return Json.parseObject(new String(Base64Url.decode(parts[1]), StandardCharsets.UTF_8));
        } catch (RuntimeException | GeneralSecurityException e) {
            return null; // malformed parts, bad base64, bad JSON or a bad signature: not genuine
        }
    }

    /**
     * The payload of a validation receipt in either form when a pinned key signed it, else null:
     * the compact JWS, or the batch form {@code hdr..sig~claims~idx~path} (typ
     * validation-receipt+mt), whose signature covers the root of a Merkle tree recomputed here
     * from the receipt's own claims: leaf SHA-256(0x00 ‖ claims), then per level, bit h of idx
     * (least significant first) 0: SHA-256(0x01 ‖ hash ‖ sibling), 1: SHA-256(0x01 ‖ sibling ‖ hash).
     * The path must be exactly 10 hashes and idx a canonical decimal below 1024.
     */
    public Map<String, Object> verifyReceipt(String receipt) {
        String text = receipt.trim();
        if (text.indexOf('~') < 0) return verify(text, "validation-receipt");
        String[] parts = text.split("~", -1);
        if (parts.length != 4) return null;
        String[] jws = parts[0].split("\\.", -1);
        if (jws.length != 3 || !jws[1].isEmpty()) return null; // the payload is detached: the root
        if (!parts[2].matches("0|[1-9][0-9]{0,3}")) return null;
        int index = Integer.parseInt(parts[2]);
        if (index >= 1 << TREE_DEPTH) return null;
        try {
            byte[] path = Base64Url.decode(parts[3]);
            if (path.length != TREE_DEPTH * HASH_BYTES) return null;
            Base64Url.decode(parts[1]); // canonical base64url only
            byte[] hash = sha256((byte) 0x00, parts[1].getBytes(StandardCharsets.US_ASCII), null);
            for (int h = 0; h < TREE_DEPTH; h++) {
                byte[] sibling = Arrays.copyOfRange(path, h * HASH_BYTES, (h + 1) * HASH_BYTES);
                hash = ((index >> h) & 1) == 1 ? sha256((byte) 0x01, sibling, hash) : sha256((byte) 0x01, hash, sibling);
            }
            String root = Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
            if (!signed(jws[0], root, jws[2], "validation-receipt+mt")) return null;
            return Json.parseObject(new String(Base64Url.decode(parts[1]), StandardCharsets.UTF_8));
        } catch (RuntimeException | GeneralSecurityException e) {
            return null;
        }
    }

    /** Whether {@code s} is a pinned key's EdDSA signature over {@code h.p} with header typ {@code typ}. */
    private boolean signed(String h, String p, String s, String typ) throws GeneralSecurityException {
        Map<String, Object> header = Json.parseObject(new String(Base64Url.decode(h), StandardCharsets.UTF_8));
        if (!"EdDSA".equals(header.get("alg")) || !typ.equals(header.get("typ"))) return false;
        PublicKey key = byKid.get(header.get("kid") instanceof String kid ? kid : "");
        if (key == null) return false;
        Signature signature = Signature.getInstance("Ed25519");
        signature.initVerify(key);
        signature.update((h + "." + p).getBytes(StandardCharsets.US_ASCII));
        return signature.verify(Base64Url.decode(s));
    }

    private static byte[] sha256(byte prefix, byte[] first, byte[] second) throws GeneralSecurityException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        digest.update(prefix);
        digest.update(first);
        if (second != null) digest.update(second);
        return digest.digest();
    }
}
