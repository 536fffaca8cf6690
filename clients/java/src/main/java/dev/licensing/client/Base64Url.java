package dev.licensing.client;

import java.util.Base64;

/**
 * Strict base64url (RFC 4648 section 5, no padding), as JWS requires: a string decodes only
 * if it is the one canonical encoding of its bytes. Java's decoder alone accepts padding and
 * a last character whose unused bits are set, so two different strings would decode to the
 * same signature or key.
 */
final class Base64Url {
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Base64Url() {}

    static byte[] decode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) throw new IllegalArgumentException("not base64url at " + i);
        }
        byte[] bytes = DECODER.decode(text);
        if (!ENCODER.encodeToString(bytes).equals(text)) throw new IllegalArgumentException("non-canonical base64url");
        return bytes;
    }
}
