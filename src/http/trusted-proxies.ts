// TRUST_PROXY as Fastify's trustProxy: false, true, or a list of proxies whose
// X-Forwarded-For is believed. A list entry is an address, a CIDR, or a host name standing
// for the addresses it resolves to (the compose stack's `TRUST_PROXY=balancer`): no fixed
// subnet, and no other address on the network (a host's gateway included) is trusted.
// Names are resolved again every few seconds, and at once (briefly awaited) when a peer
// that is not trusted sends X-Forwarded-For, so a balancer restarted with a new address
// is trusted again from its first request.
import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { normalizeIp } from './client-ip.js';

/** How often names are resolved again. */
export const TRUST_REFRESH_MS = 5000;
/** At most one extra resolution per this long, however many untrusted peers send the header. */
const MISS_REFRESH_MIN_MS = 1000;
/** How long a request from an untrusted peer waits for that resolution. */
const MISS_WAIT_MS = 1000;

type Trust = (address: string, hop: number) => boolean;

export interface TrustedProxies {
  /** What Fastify's trustProxy option gets. */
  option: boolean | string | Trust;
  /** Resolves the names now; starts the periodic refresh and the miss hook (a no-op without names). */
  attach(app: FastifyInstance): void;
}

/** Whether a TRUST_PROXY entry is a host name (not an address or CIDR). */
export function isHostName(entry: string): boolean {
  return isIP(entry) === 0 && !entry.includes('/') && /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(entry);
}

export interface TrustedProxiesOptions {
  /** Resolves a name to its addresses (tests give their own). */
  resolve?: (name: string) => Promise<string[]>;
  /** At most one lookup triggered by untrusted peers per this long. */
  missRefreshMinMs?: number;
}

export function trustedProxies(setting: boolean | string, options: TrustedProxiesOptions = {}): TrustedProxies {
  const { resolve = resolveName, missRefreshMinMs = MISS_REFRESH_MIN_MS } = options;
  const entries = typeof setting === 'string' ? setting.split(',').map((entry) => entry.trim()).filter(Boolean) : [];
  const names = entries.filter(isHostName);
  if (names.length === 0) return { option: setting, attach: () => {} };

  const ranges = entries.filter((entry) => !isHostName(entry)).map(parseRange);
  /** The addresses each name resolved to last. */
  const resolved = new Map<string, Set<string>>(names.map((name) => [name, new Set<string>()]));
  const trusted = (address: string): boolean => {
    const ip = normalizeIp(address);
    if (ip === null) return false;
    for (const addresses of resolved.values()) if (addresses.has(ip)) return true;
    const parsed = ipaddr.parse(ip);
    return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  };

  /** The last failure of each name that fails now, so it is logged once. */
  const problems = new Map<string, string>();
  let inFlight: Promise<void> | null = null;
  let lastRefresh = 0;
  let log: FastifyInstance['log'] | null = null;
  const refresh = (): Promise<void> => {
    inFlight ??= (async () => {
      lastRefresh = Date.now();
      await Promise.all(
        names.map(async (name) => {
          try {
            const addresses = new Set((await resolve(name)).map(normalizeIp).filter((ip): ip is string => ip !== null));
            const before = resolved.get(name)!;
            if ([...addresses].sort().join() !== [...before].sort().join()) log?.info({ name, addresses: [...addresses] }, 'TRUST_PROXY: trusted proxy addresses');
            resolved.set(name, addresses);
            problems.delete(name);
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            // A name that no longer exists trusts nothing; a lookup that failed for now keeps what it knew.
            if (code === 'ENOTFOUND') resolved.set(name, new Set());
            // Once per change (the balancer starts after the instances: not found at first).
            if (problems.get(name) !== code) log?.warn({ name, code, trusted: [...resolved.get(name)!] }, 'TRUST_PROXY: name not resolved');
            problems.set(name, code ?? 'unknown');
          }
        }),
      );
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  return {
    option: (address) => trusted(address),
    attach(app) {
      log = app.log;
      void refresh();
      const timer = setInterval(() => void refresh(), TRUST_REFRESH_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
      // Before any other hook reads the caller's address (rate limits, logs).
      app.addHook('onRequest', async (request) => {
        if (request.headers['x-forwarded-for'] === undefined || trusted(request.socket.remoteAddress ?? '')) return;
        if (!inFlight && Date.now() - lastRefresh < missRefreshMinMs) return;
        let timeout: NodeJS.Timeout | undefined;
        await Promise.race([refresh(), new Promise((resolve) => (timeout = setTimeout(resolve, MISS_WAIT_MS)))]);
        clearTimeout(timeout);
      });
    },
  };
}

/** DNS queries of our own: 0.5 s per try, 3 tries (a lost packet costs 0.5 s, not glibc's 5). */
const dnsResolver = new Resolver({ timeout: 500, tries: 3 });
/** getaddrinfo runs in libuv's thread pool (which database connections share): one per name at a time. */
const pendingLookups = new Map<string, Promise<string[]>>();
/** How long one resolution may take before it counts as failed for now. */
const RESOLVE_TIMEOUT_MS = 2000;

/**
 * The addresses of `name`: from the system resolver (the hosts file too) or from DNS queries
 * made directly, whichever answers first. After a container stops or starts, podman's DNS
 * server may drop queries for a while (docs/deploy.md, "Containers"); glibc then waits 5 s
 * per server and try, which the direct queries do not.
 */
async function resolveName(name: string): Promise<string[]> {
  let system = pendingLookups.get(name);
  if (!system) {
    system = lookup(name, { all: true })
      .then((entries) => entries.map((entry) => entry.address))
      .finally(() => pendingLookups.delete(name));
    pendingLookups.set(name, system);
  }
  const direct = Promise.allSettled([dnsResolver.resolve4(name), dnsResolver.resolve6(name)]).then(([v4, v6]) => {
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length > 0) return addresses;
    throw v4.status === 'rejected' ? v4.reason : new Error('no address');
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.any([system, direct]), timeout]);
  } catch (err) {
    // Gone only when both say so; anything else is "not known for now".
    const errors = err instanceof AggregateError ? err.errors : [err];
    const gone = errors.every((e) => ['ENOTFOUND', 'ENODATA'].includes((e as NodeJS.ErrnoException).code ?? ''));
    throw Object.assign(new Error(`${name} not resolved`), { code: gone ? 'ENOTFOUND' : 'EAI_AGAIN' });
  } finally {
    clearTimeout(timer);
  }
}

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
