package org.bukkit.plugin;

public interface Plugin {
    void onEnable();

    void onDisable();
}
