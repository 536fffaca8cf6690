package org.bukkit.plugin;

/** Stub: the name and version of plugin.yml. */
public final class PluginDescriptionFile {
    private final String name;
    private final String version;

    public PluginDescriptionFile(String name, String version) {
        this.name = name;
        this.version = version;
    }

    public String getName() {
        return name;
    }

    public String getVersion() {
        return version;
    }
}
