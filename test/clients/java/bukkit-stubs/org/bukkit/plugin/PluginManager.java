package org.bukkit.plugin;

/** Stub: disabling a plugin is reported on stdout ("DISABLED"), then its onDisable runs. */
public final class PluginManager {
    public void disablePlugin(Plugin plugin) {
        System.out.println("DISABLED");
        plugin.onDisable();
    }
}
