package dev.licensing.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Keeps a floating seat ({@link LicenseClient#keepAlive}): validates on its own daemon
 * thread now and then at least every third of the signed slotTimeoutMinutes, so the service
 * never releases the binding as inactive, and reports each result. {@link #stop} (or close)
 * waits for a validation under way and frees the machine, so the seat is free for another
 * server at once; call it from a plugin's onDisable.
 */
public final class KeepAlive implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.licensing.client");
    private static final long MIN_INTERVAL_MS = 1_000;

    private final LicenseClient client;
    private final String licenseId;
    private final String productId;
    private final String hwid;
    private final long longestMs;
    private final Consumer<ValidationResult> onResult;
    private final ScheduledThreadPoolExecutor timer;
    private volatile boolean stopped;
    private ReleaseResult released;

    KeepAlive(LicenseClient client, String licenseId, String productId, String hwid, Duration longestInterval, Consumer<ValidationResult> onResult) {
        this.client = client;
        this.licenseId = licenseId;
        this.productId = productId;
        this.hwid = hwid;
        this.longestMs = Math.max(MIN_INTERVAL_MS, longestInterval.toMillis());
        this.onResult = onResult;
        this.timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "license-keep-alive");
            thread.setDaemon(true); // never keeps the JVM alive
            return thread;
        });
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // stop() cancels the next round
        timer.execute(this::round);
    }

    private void round() {
        ValidationResult result = client.validate(licenseId, productId, hwid);
        if (stopped) return;
        try {
            onResult.accept(result);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "keepAlive result handler threw", e);
        }
        long delay = intervalFor(result.terms(), Duration.ofMillis(longestMs)).toMillis();
        if (result.retryAfterSeconds() > 0) delay = Math.max(delay, result.retryAfterSeconds() * 1000);
        try {
            if (!stopped) timer.schedule(this::round, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile
        }
    }

    /** The wait before the next validation: a third of the signed slot timeout, at most {@code longest}, at least a second. */
    public static Duration intervalFor(LicenseTerms terms, Duration longest) {
        long delay = Math.max(MIN_INTERVAL_MS, longest.toMillis());
        if (terms.slotTimeoutMinutes().isPresent()) {
            delay = Math.min(delay, Math.max(MIN_INTERVAL_MS, terms.slotTimeoutMinutes().getAsLong() * 60_000 / 3));
        }
        return Duration.ofMillis(delay);
    }

    /**
     * Stops validating, waits for a validation under way (up to a minute), then frees this
     * machine's hwid with the service (needs the vendor's selfReleaseLimit; otherwise the seat
     * frees itself after slotTimeoutMinutes). Blocks for up to the request timeout. Calling it
     * again returns the first answer.
     */
    public synchronized ReleaseResult stop() {
        if (stopped) return released;
        stopped = true;
        timer.shutdown();
        try {
            timer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        released = client.release(licenseId, productId, hwid, null);
        return released;
    }

    /** Stops without freeing the machine (it frees itself after slotTimeoutMinutes). */
    public synchronized void stopKeepingSeat() {
        if (stopped) return;
        stopped = true;
        timer.shutdown();
    }

    @Override
    public void close() {
        stop();
    }
}
