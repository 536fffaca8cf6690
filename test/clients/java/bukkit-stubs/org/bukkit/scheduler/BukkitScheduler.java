package org.bukkit.scheduler;

import java.util.concurrent.ExecutorService;
import org.bukkit.plugin.Plugin;

/** Stub: runTask queues the task on the server's main thread; runTaskAsynchronously runs it on a thread of its own. */
public final class BukkitScheduler {
    private final ExecutorService mainThread;

    public BukkitScheduler(ExecutorService mainThread) {
        this.mainThread = mainThread;
    }

    public BukkitTask runTask(Plugin plugin, Runnable task) {
        var future = mainThread.submit(task);
        return () -> future.cancel(false);
    }

    public BukkitTask runTaskAsynchronously(Plugin plugin, Runnable task) {
        Thread thread = new Thread(task, "Craft Scheduler Thread - " + ASYNC.incrementAndGet());
        thread.start();
        return thread::interrupt;
    }

    private static final java.util.concurrent.atomic.AtomicInteger ASYNC = new java.util.concurrent.atomic.AtomicInteger();
}
