package org.bukkit.scheduler;

import java.util.concurrent.ExecutorService;
import org.bukkit.plugin.Plugin;

/** Stub: runTask queues the task on the server's main thread. */
public final class BukkitScheduler {
    private final ExecutorService mainThread;

    public BukkitScheduler(ExecutorService mainThread) {
        this.mainThread = mainThread;
    }

    public BukkitTask runTask(Plugin plugin, Runnable task) {
        var future = mainThread.submit(task);
        return () -> future.cancel(false);
    }
}
