// Loaded into the server under test by `node --import` (npm run bench:releases): every 10 ms
// it appends the process's memory (process.memoryUsage(), in bytes; `uptime` in ms as --trace-gc counts) as one JSON line to the
// file named by BENCH_MEMORY_SAMPLES, so the bench can tell the JavaScript heap from Buffers
// (arrayBuffers) and from the rest of RSS. The timer is unref'd: it never keeps the server up.
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_SAMPLES;
if (file) {
  setInterval(() => {
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), uptime: Math.round(performance.now()), rss, heapUsed, external, arrayBuffers })}\n`);
  }, 10).unref();
}
