// Starts a worker thread from a module file. Compiled modules (.js) run as they are;
// TypeScript sources (tests, `npm run dev`, the benchmark: all run through tsx) get tsx
// registered inside the worker first, because a worker does not inherit the loader.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `name` (without extension) beside the module at `callerUrl`, in that module's flavour (.ts or .js). */
export function siblingModule(callerUrl: string, name: string): URL {
  const extension = new URL(callerUrl).pathname.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, callerUrl);
}

export function startWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, options);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
