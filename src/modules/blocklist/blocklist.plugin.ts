// Leak defence in this instance: the blocklist the validation path consults, started with
// the app (its index loaded before the first request) and stopped on close (hits flushed).
import fp from 'fastify-plugin';
import { Blocklist } from './blocklist.cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The blocklist rules in memory: `check()` answers without a query. */
    blocklist: Blocklist;
  }
}

export const blocklistPlugin = fp(
  async (app) => {
    // Hits are announced as `blocklist.hit` events while some endpoint wants them.
    const blocklist = new Blocklist(app.db, app.webhookSubscriptions, app.log);
    await blocklist.start();
    app.decorate('blocklist', blocklist);
    app.addHook('preClose', () => blocklist.stop());
  },
  { name: 'blocklist', dependencies: ['storage', 'events'] },
);
