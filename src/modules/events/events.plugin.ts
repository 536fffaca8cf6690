// The events module in this instance: which event types some webhook endpoint wants (the
// set the validation path and the scans consult without a query), and `app.transaction`,
// whose committed changes are told to in-process listeners (change-feed.ts).
import fp from 'fastify-plugin';
import type { Db } from '../../db/database.js';
import { ChangeFeed } from './change-feed.js';
import { Subscriptions } from './subscriptions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Which event types some enabled endpoint receives (validation consults it without a query). */
    webhookSubscriptions: Subscriptions;
    /** Changes committed through app.transaction on this instance, for modules that keep state in memory. */
    changeFeed: ChangeFeed;
    /** Runs `fn` in one database transaction: all of its writes commit or none do. */
    transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
  }
}

export const eventsPlugin = fp(
  async (app) => {
    const subscriptions = new Subscriptions(app.db);
    await subscriptions.start();
    const feed = new ChangeFeed(app.log);
    app.decorate('webhookSubscriptions', subscriptions);
    app.decorate('changeFeed', feed);
    app.decorate('transaction', <T>(fn: (trx: Db) => Promise<T>) => feed.run(app.storage.transaction, fn));
    app.addHook('preClose', () => subscriptions.stop());
  },
  { name: 'events', dependencies: ['storage'] },
);
