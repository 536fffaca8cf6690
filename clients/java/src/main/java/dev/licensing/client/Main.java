package dev.licensing.client;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/** The command line shared with the TypeScript client (DECISIONS.md "Client libraries"). */
public final class Main {
    private static final String USAGE = """
            usage:
              java -jar license-client.jar validate --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE --cache FILE [--grace-hours H]
              java -jar license-client.jar verify-file --keys JWKS_FILE --license-file FILE --product ID [--hwid HWID]
              java -jar license-client.jar release --url URL --license KEY --product ID --hwid HWID
              java -jar license-client.jar machine-id --file FILE
              java -jar license-client.jar update check --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE [--version V] [--channel C]
              java -jar license-client.jar update download --url URL --license KEY --product ID --hwid HWID --keys JWKS_FILE --to FILE [--channel C]
              java -jar license-client.jar --help

            validate and verify-file: a valid answer prints VALID, VALID GRACE <grace end> or VALID_OFFLINE,
            then "expires <ISO-8601>" ("expires never"; "expires unknown" from an older service) and
            "features {...}" (JSON): exit 0. A refusal prints INVALID <why> (e.g. INVALID REJECTED,
            INVALID BLOCKED): exit 1. Usage errors exit 2.
            update check: UPDATE <version> <sha256> (a newer release than --version), UP_TO_DATE <version>
            or UP_TO_DATE (none this license may have): exit 0. update download: the newest release the
            license may have, checked against the signed answer, written to FILE: DOWNLOADED <version> <path>,
            exit 0. A refusal prints INVALID <why> (e.g. INVALID REJECTED, INVALID UNVERIFIED): exit 1.""";

    private static final class UsageError extends Exception {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /** {@code --help} (or {@code -h}) where a command or an option is expected: print the usage, exit 0. */
    private static final class HelpRequested extends Exception {
        private static final long serialVersionUID = 1L;
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (HelpRequested e) {
            System.out.println(USAGE);
            code = 0;
        } catch (UsageError e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            code = 2;
        }
        System.out.flush();
        System.exit(code);
    }

    private static int run(String[] args) throws UsageError, HelpRequested {
        if (args.length == 0) throw new UsageError("no command given");
        String command = args[0];
        if (isHelp(command) || command.equals("help")) throw new HelpRequested();
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        if (command.equals("validate")) {
            Map<String, String> a = parse(rest, List.of("url", "license", "product", "hwid", "keys", "cache"), List.of("grace-hours"));
            double grace;
            try {
                grace = a.containsKey("grace-hours") ? Double.parseDouble(a.get("grace-hours")) : 72;
            } catch (NumberFormatException e) {
                throw new UsageError("--grace-hours must be a number >= 0");
            }
            if (!(grace >= 0) || Double.isInfinite(grace)) throw new UsageError("--grace-hours must be a number >= 0");
            LicenseClient client;
            try {
                client = new LicenseClient(a.get("url"), keys(a.get("keys")), Path.of(a.get("cache")), grace, Duration.ofSeconds(10));
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
            ValidationResult result = client.validate(a.get("license"), a.get("product"), a.get("hwid"));
            System.out.println(result);
            if (result.isValid()) printTerms(result.terms());
            return result.isValid() ? 0 : 1;
        }
        if (command.equals("verify-file")) {
            Map<String, String> a = parse(rest, List.of("keys", "license-file", "product"), List.of("hwid"));
            LicenseFiles.Check check = LicenseFiles.check(read(a.get("license-file"), "license file"), keys(a.get("keys")),
                    a.get("product"), a.get("hwid"), System.currentTimeMillis());
            System.out.println(check);
            if (check.isValid()) printTerms(check.terms());
            return check.isValid() ? 0 : 1;
        }
        if (command.equals("release")) {
            Map<String, String> a = parse(rest, List.of("url", "license", "product", "hwid"), List.of());
            ReleaseResult result;
            try {
                result = SelfRelease.release(a.get("url"), a.get("license"), a.get("product"), a.get("hwid"), null, Duration.ofSeconds(10));
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
            System.out.println(result);
            return result.status() == ReleaseResult.Status.INVALID ? 1 : 0;
        }
        if (command.equals("update")) return update(rest);
        if (command.equals("machine-id")) {
            Map<String, String> a = parse(rest, List.of("file"), List.of());
            try {
                System.out.println(MachineId.of(Path.of(a.get("file"))));
            } catch (IOException | RuntimeException e) {
                throw new UsageError("cannot keep a machine id in " + a.get("file") + ": " + e.getMessage());
            }
            return 0;
        }
        throw new UsageError("unknown command " + command);
    }

    /** {@code update check|download}: the signed check, then (download) the checked release written to --to. */
    private static int update(String[] args) throws UsageError, HelpRequested {
        if (args.length == 0) throw new UsageError("update needs check or download");
        if (isHelp(args[0])) throw new HelpRequested();
        String action = args[0];
        if (!action.equals("check") && !action.equals("download")) throw new UsageError("unknown update command " + action);
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        List<String> common = List.of("url", "license", "product", "hwid", "keys");
        Map<String, String> a = action.equals("check")
                ? parse(rest, common, List.of("version", "channel"))
                : parse(rest, concat(common, "to"), List.of("channel"));
        String channel = a.get("channel");
        if (channel != null && !List.of("stable", "beta", "alpha").contains(channel)) throw new UsageError("--channel must be stable, beta or alpha");
        LicenseClient client;
        try {
            java.net.URI.create(a.get("url")).toURL();
            client = new LicenseClient(a.get("url"), keys(a.get("keys")), null, 0, Duration.ofSeconds(10));
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw new UsageError("--url " + a.get("url") + ": " + e.getMessage());
        }
        UpdateCheck check = client.checkForUpdate(a.get("license"), a.get("product"), a.get("hwid"), a.get("version"), channel);
        if (action.equals("check")) {
            System.out.println(check);
            return check.valid() ? 0 : 1;
        }
        UpdateDownload result;
        try {
            result = client.downloadUpdate(Path.of(a.get("to")), check);
        } catch (IOException | RuntimeException e) {
            System.err.println("cannot write " + a.get("to") + ": " + e.getMessage());
            return 1;
        }
        System.out.println(result);
        return result.downloaded() ? 0 : 1;
    }

    private static List<String> concat(List<String> names, String name) {
        List<String> out = new java.util.ArrayList<>(names);
        out.add(name);
        return out;
    }

    /**
     * The lines after a valid answer's: its expiry and its features, from the signed payload.
     * "expires unknown": a receipt from a service that signs no expiry (none there means never).
     */
    private static void printTerms(LicenseTerms terms) {
        OptionalLong expiry = terms.expiresAtEpochMillis();
        System.out.println("expires " + (expiry.isPresent() ? ValidationResult.iso(expiry.getAsLong()) : terms.expiryTold() ? "never" : "unknown"));
        System.out.println("features " + featuresJson(terms.features()));
    }

    /**
     * Features as one line of JSON, keys sorted, everything outside printable ASCII escaped (a
     * feature's string value cannot move the cursor or add a line); the TypeScript CLI prints the same.
     */
    private static String featuresJson(Map<String, Object> features) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> feature : new TreeMap<>(features).entrySet()) {
            if (out.length() > 1) out.append(',');
            out.append(quoteAscii(feature.getKey())).append(':');
            Object value = feature.getValue();
            if (value instanceof String text) out.append(quoteAscii(text));
            else if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e21) out.append(new BigDecimal(d).toPlainString()); // as JavaScript prints 5.0
            else out.append(value);
        }
        return out.append('}').toString();
    }

    private static String quoteAscii(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    private static Map<String, String> parse(String[] args, List<String> required, List<String> optional) throws UsageError, HelpRequested {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (isHelp(args[i])) throw new HelpRequested();
            String name = args[i].startsWith("--") ? args[i].substring(2) : "";
            if (!required.contains(name) && !optional.contains(name)) throw new UsageError("unknown argument " + args[i]);
            if (i + 1 >= args.length) throw new UsageError(args[i] + " needs a value");
            out.put(name, args[i + 1]);
        }
        for (String name : required) if (!out.containsKey(name)) throw new UsageError("--" + name + " is required");
        return out;
    }

    private static PinnedKeys keys(String path) throws UsageError {
        try {
            return new PinnedKeys(read(path, "keys file"));
        } catch (IllegalArgumentException e) {
            throw new UsageError("keys file " + path + ": " + e.getMessage());
        }
    }

    private static String read(String path, String what) throws UsageError {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new UsageError("cannot read " + what + " " + path);
        }
    }
}
