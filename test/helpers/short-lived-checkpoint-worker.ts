// A checkpoint worker that says it is ready and then stops, as a crashed one would.
import { parentPort } from 'node:worker_threads';

parentPort!.postMessage({ ready: true });
setTimeout(() => process.exit(3), 50);
