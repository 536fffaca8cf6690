// A TCP proxy of the test's own between the app and a shared server (PostgreSQL,
// Redis): cut() drops every connection and refuses new ones, restore() listens again
// on the same port; pause() stops forwarding bytes while connections stay open (a
// network that drops packets), resume() lets them flow again. Outages are simulated
// without touching the shared servers.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Destroys every open connection and stops accepting (new connections are refused). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  /** Holds every byte in both directions, on open and new connections alike. */
  pause(): void;
  /** Delivers what was held and forwards again. */
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const pairs = new Set<[net.Socket, net.Socket]>();
  let paused = false;
  const connectPair = ([client, upstream]: [net.Socket, net.Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    track(client);
    track(upstream);
    pairs.add(pair);
    if (!paused) connectPair(pair);
    client.on('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return {
    port,
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    close: stop,
    pause() {
      paused = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      paused = false;
      for (const pair of pairs) connectPair(pair);
    },
  };
}

/** The URL of `databaseUrl` reached through `proxy` instead of directly. */
export function viaProxy(databaseUrl: string, proxy: TcpProxy): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

/** A proxy in front of the server of a PostgreSQL URL (so that server can be cut away). */
export function proxyFor(databaseUrl: string): Promise<TcpProxy> {
  const url = new URL(databaseUrl);
  return startTcpProxy(url.hostname, Number(url.port || 5432));
}
