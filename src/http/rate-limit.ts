// Per-client-IP rate limits for the public endpoints, as onRequest hooks: they count
// every request before its body is read (so 400s count too; an IPv6 client counts by its
// /64: src/lib/ip-address.ts) and answer 429 with
// Retry-After once the window's allowance is used up. Counters live in memory, or in
// Redis when REDIS_URL is set so that every instance shares them (falling back to memory
// while Redis is unreachable: src/lib/rate-limit-store.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { rateLimitKeyOf } from '../lib/ip-address.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type Hit, type RateLimitStore } from '../lib/rate-limit-store.js';
import { clientIp } from './client-ip.js';
import { MINUTE_MS } from '../lib/time.js';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitStore: RateLimitStore;
  }
}

export const VALIDATION_LIMITED = 'Too many validation attempts. Try again shortly.';
export const WEBHOOK_LIMITED = 'Too many requests. Please try again shortly.';

export function registerRateLimitStore(app: FastifyInstance): void {
  const { redisUrl, redisKeyPrefix } = app.config;
  if (redisUrl) {
    const log = { warn: (message: string) => app.log.warn(message), info: (message: string) => app.log.info(message) };
    const store = new RedisRateLimitStore(redisUrl, `${redisKeyPrefix}ratelimit:`, log);
    // The first requests count in Redis when it answers at start (at most connectTimeout).
    app.addHook('onReady', () => store.connected());
    app.decorate('rateLimitStore', store as RateLimitStore);
  } else {
    app.decorate('rateLimitStore', new MemoryRateLimitStore() as RateLimitStore);
  }
  const store = app.rateLimitStore;
  app.addHook('onClose', () => store.close());
}

export interface RateLimit {
  /** Counter name: routes using the same name share one counter per IP. */
  name: string;
  max: number;
  windowMs: number;
  /** Sends the 429 answer (Retry-After is already set). */
  reject(reply: FastifyReply): FastifyReply;
}

type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** Marks a rate-limit hook, so the OpenAPI document declares the route's 429 (http/openapi.ts). */
const RATE_LIMITED = Symbol('rateLimited');

/** Whether an onRequest hook is one of rateLimitHook's. */
export const isRateLimitHook = (hook: unknown): boolean =>
  typeof hook === 'function' && (hook as unknown as Record<symbol, unknown>)[RATE_LIMITED] === true;

export function rateLimitHook(app: FastifyInstance, limit: RateLimit): OnRequest {
  const decide = (hit: Hit, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (hit.count <= limit.max) return done();
    reply.header('retry-after', String(Math.max(1, Math.ceil(hit.resetInMs / 1000))));
    limit.reject(reply);
  };
  // Callback style: the in-memory store answers synchronously, without a promise per request.
  const hook: OnRequest = (request, reply, done) => {
    const failOpen = (err: unknown) => {
      // A limiter outage must not take the public endpoints down with it.
      request.log.error({ err }, `rate limit ${limit.name}: store unavailable, request let through`);
      done();
    };
    try {
      const hit = app.rateLimitStore.hit(`${limit.name}:${rateLimitKeyOf(clientIp(request))}`, limit.windowMs);
      if (hit instanceof Promise) hit.then((h) => decide(h, reply, done), failOpen);
      else decide(hit, reply, done);
    } catch (err) {
      failOpen(err);
    }
  };
  return Object.assign(hook, { [RATE_LIMITED]: true });
}

/** POST /licenses/validate: VALIDATION_RATE_LIMIT (default 30) per minute per IP, JSON 429. */
export const validationRateLimit = (app: FastifyInstance): OnRequest =>
  rateLimitHook(app, {
    name: 'validate',
    max: app.config.validationRateLimit,
    windowMs: MINUTE_MS,
    reject: (reply) => reply.code(429).send({ error: VALIDATION_LIMITED }),
  });

/**
 * The marketplace webhook: WEBHOOK_RATE_LIMIT (default 60) per minute per IP, plain-text
 * 429. Put the returned hook in `onRequest` of all three webhook routes: they share one
 * counter per IP (the counter is named, not tied to a route).
 */
export const webhookRateLimit = (app: FastifyInstance): OnRequest =>
  rateLimitHook(app, {
    name: 'webhook',
    max: app.config.webhookRateLimit,
    windowMs: MINUTE_MS,
    reject: (reply) => reply.code(429).type('text/plain; charset=utf-8').send(WEBHOOK_LIMITED),
  });
