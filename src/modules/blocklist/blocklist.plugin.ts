// Leak defence in this instance: the blocklist the validation path consults, started with
// the app (its index loaded before the first request) and stopped on close (hits flushed).
import type { FastifyInstance } from 'fastify';
import { Blocklist } from './blocklist.cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The blocklist rules in memory: `check()` answers without a query. */
    blocklist: Blocklist;
  }
}

export async function startBlocklist(app: FastifyInstance): Promise<void> {
  const blocklist = new Blocklist(app.db, app.webhookSubscriptions, app.log);
  await blocklist.start();
  app.decorate('blocklist', blocklist);
  app.addHook('preClose', () => blocklist.stop());
}
