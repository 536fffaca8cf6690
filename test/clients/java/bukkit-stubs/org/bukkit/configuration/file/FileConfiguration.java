package org.bukkit.configuration.file;

import java.util.Map;

/** Stub: config.yml as a flat map. */
public final class FileConfiguration {
    private final Map<String, String> values;

    public FileConfiguration(Map<String, String> values) {
        this.values = values;
    }

    public String getString(String path) {
        return values.get(path);
    }
}
