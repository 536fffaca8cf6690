import java.io.File;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.bukkit.Server;
import org.bukkit.configuration.file.FileConfiguration;
import org.bukkit.plugin.java.JavaPlugin;
import org.bukkit.scheduler.BukkitScheduler;

/**
 * Plays the server for a plugin class: `java PluginHarness CLASS DATA_FOLDER LICENSE_KEY RUN_MILLIS [first-log]`
 * enables it on a "main" thread, lets it run RUN_MILLIS (with "first-log": until it logs
 * something, at most RUN_MILLIS), disables it, and says on which thread each log line was
 * written (a plugin must touch the game on the main thread only).
 */
public final class PluginHarness {
    public static void main(String[] args) throws Exception {
        // Every line the plugin logs, with the thread that logged it, on stdout.
        CountDownLatch logged = new CountDownLatch(1);
        Logger log = Logger.getLogger("plugin");
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                System.out.println("LOG " + record.getLevel() + " " + record.getMessage() + " [" + Thread.currentThread().getName() + "]");
                logged.countDown();
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        ExecutorService mainThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "Server thread"));
        JavaPlugin plugin = (JavaPlugin) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        plugin.init(new File(args[1]), new Server(new BukkitScheduler(mainThread), new File(new File(args[1]).getParentFile(), "update")), new FileConfiguration(Map.of("license-key", args[2])));
        long enableStarted = System.nanoTime();
        mainThread.submit(plugin::onEnable).get();
        System.out.println("onEnable returned in ms " + (System.nanoTime() - enableStarted) / 1_000_000);
        if (args.length > 4 && args[4].equals("first-log")) logged.await(Long.parseLong(args[3]), TimeUnit.MILLISECONDS);
        else Thread.sleep(Long.parseLong(args[3]));
        mainThread.submit(plugin::onDisable).get();
        mainThread.shutdown();
        mainThread.awaitTermination(30, TimeUnit.SECONDS);
        System.out.println("STOPPED");
        System.exit(0);
    }
}
