// Starts test/helpers/child-app.ts in a separate Node process and gives a request client for it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request, type RequestOptions } from './http.js';

export interface ChildApp {
  req(method: string, path: string, opts?: RequestOptions): ReturnType<typeof request>;
  stop(): Promise<void>;
  /** kill -9: no shutdown of any kind. */
  kill(): Promise<void>;
}

export async function startChildApp(env: Record<string, string>): Promise<ChildApp> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/child-app.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`child app exited with ${code}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    req: (method, path, opts) => request(baseUrl, method, path, opts),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return; // exited, or killed by a signal
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return; // exited, or killed by a signal
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
