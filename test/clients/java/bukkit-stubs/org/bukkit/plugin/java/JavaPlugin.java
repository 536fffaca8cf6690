package org.bukkit.plugin.java;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.logging.Logger;
import org.bukkit.Server;
import org.bukkit.configuration.file.FileConfiguration;
import org.bukkit.plugin.Plugin;
import org.bukkit.plugin.PluginDescriptionFile;

/**
 * Stub of Bukkit's JavaPlugin: the harness sets the data folder, server and config;
 * getResource reads the plugin jar's resources from the data folder's "resources" directory.
 */
public abstract class JavaPlugin implements Plugin {
    private File dataFolder;
    private Server server;
    private FileConfiguration config;
    private final Logger logger = Logger.getLogger("plugin");

    public final void init(File dataFolder, Server server, FileConfiguration config) {
        this.dataFolder = dataFolder;
        this.server = server;
        this.config = config;
    }

    public File getDataFolder() {
        return dataFolder;
    }

    public Server getServer() {
        return server;
    }

    public FileConfiguration getConfig() {
        return config;
    }

    public Logger getLogger() {
        return logger;
    }

    /** plugin.yml's fields; the harness takes the version from -Dplugin.version (default 1.0.0). */
    public PluginDescriptionFile getDescription() {
        return new PluginDescriptionFile(getClass().getSimpleName(), System.getProperty("plugin.version", "1.0.0"));
    }

    /** The plugin's jar: plugins/&lt;class name&gt;.jar beside the data folder. */
    protected File getFile() {
        return new File(dataFolder.getParentFile(), getClass().getSimpleName() + ".jar");
    }

    public InputStream getResource(String filename) {
        try {
            return Files.newInputStream(new File(new File(dataFolder, "resources"), filename).toPath());
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void onEnable() {}

    @Override
    public void onDisable() {}
}
