// Child processes of the benchmark: each server runs alone in its own process, so the
// load generator (this process) and the server under test do not share an event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, type WriteStream } from 'node:fs';
import net from 'node:net';

/** The node flags `npm start` runs the server with (package.json), so that a built server is measured as shipped. */
export function startNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/server.js'));
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Server {
  url: string;
  /** The server process's id (its memory is read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Node flags added to those `npm start` uses (e.g. `--import` of a probe, `--trace-gc`). */
  nodeFlags?: string[];
  /** Where the server's standard output goes (e.g. what `--trace-gc` prints); dropped when absent. */
  stdout?: WriteStream;
}

/**
 * Runs an entry file with `env` (a TypeScript one through tsx, a built `.js` one as `npm start`
 * runs it), and waits until `readyPath` answers.
 */
export async function startServer(entry: string, env: Record<string, string>, readyPath = '/', options: ServerOptions = {}): Promise<Server> {
  const port = await freePort();
  const flags = options.nodeFlags ?? [];
  const args = entry.endsWith('.js') ? [...startNodeFlags(), ...flags, entry] : [...flags, '--import', 'tsx', entry];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  if (options.stdout) child.stdout!.pipe(options.stdout);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}:\n${stderr}`);
    try {
      await fetch(url + readyPath);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${entry} did not answer within 60 s:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
