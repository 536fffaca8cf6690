package org.bukkit;

import org.bukkit.plugin.PluginManager;
import org.bukkit.scheduler.BukkitScheduler;

public final class Server {
    private final BukkitScheduler scheduler;
    private final PluginManager pluginManager = new PluginManager();

    public Server(BukkitScheduler scheduler) {
        this.scheduler = scheduler;
    }

    public BukkitScheduler getScheduler() {
        return scheduler;
    }

    public PluginManager getPluginManager() {
        return pluginManager;
    }
}
