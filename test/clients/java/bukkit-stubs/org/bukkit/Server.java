package org.bukkit;

import java.io.File;
import org.bukkit.plugin.PluginManager;
import org.bukkit.scheduler.BukkitScheduler;

public final class Server {
    private final BukkitScheduler scheduler;
    private final PluginManager pluginManager = new PluginManager();
    private final File updateFolder;

    public Server(BukkitScheduler scheduler) {
        this(scheduler, new File("plugins", "update"));
    }

    public Server(BukkitScheduler scheduler, File updateFolder) {
        this.scheduler = scheduler;
        this.updateFolder = updateFolder;
    }

    /** Where a jar of the same name as a plugin's replaces it at the next start (plugins/update). */
    public File getUpdateFolderFile() {
        return updateFolder;
    }

    public BukkitScheduler getScheduler() {
        return scheduler;
    }

    public PluginManager getPluginManager() {
        return pluginManager;
    }
}
