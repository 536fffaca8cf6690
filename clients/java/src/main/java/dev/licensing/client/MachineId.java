package dev.licensing.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/**
 * A machine id that belongs to the installation, not the hardware: a random id created once
 * and kept in a file the application names (e.g. the plugin's data folder). Containers and
 * game panels change hardware ids and MAC addresses on restarts and moves; a file kept with
 * the installation keeps its id until the buyer copies the server elsewhere on purpose.
 */
public final class MachineId {
    /** Environment variable that overrides the stored id. */
    public static final String ENV = "LICENSE_MACHINE_ID";

    private MachineId() {}

    /**
     * The id kept in {@code file} (created on first use: mode 0600, written atomically), or
     * {@code LICENSE_MACHINE_ID} when set. Callers racing on a first start agree on one id:
     * the file is published as a hard link, which never replaces an existing file.
     */
    public static String of(Path file) throws IOException {
        String override = System.getenv(ENV);
        if (override != null && !override.isBlank()) return override.trim();
        String existing = stored(file);
        if (existing != null) return existing;

        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, ".machine-id-", ".tmp");
        try {
            restrict(temp);
            Files.writeString(temp, UUID.randomUUID() + "\n", StandardCharsets.UTF_8);
            try {
                Files.createLink(file, temp);
            } catch (FileAlreadyExistsException e) {
                // Another caller won the race, or the file is damaged: keep a valid one, replace a damaged one.
                if (stored(file) == null) Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (UnsupportedOperationException e) {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE); // no hard links here
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        String id = stored(file);
        if (id == null) throw new IOException("machine id file " + file + " could not be written");
        return id;
    }

    private static String stored(Path file) {
        try {
            String id = Files.readString(file, StandardCharsets.UTF_8).trim();
            return id.isEmpty() || id.length() > 1024 || !id.chars().allMatch(c -> c > 0x20 && c < 0x7f) ? null : id;
        } catch (IOException e) {
            return null;
        }
    }

    private static void restrict(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): the user's profile protects it
        }
    }
}
