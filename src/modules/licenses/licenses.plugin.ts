// The licenses module's background work in this instance: the expiring/expired scan
// (expiry-notices.ts), started with the app and stopped on close.
import fp from 'fastify-plugin';
import { startExpiryNotices } from './expiry-notices.js';

export const licensesPlugin = fp(
  async (app) => {
    const stopExpiry = startExpiryNotices(app.storage, app.webhookSubscriptions, app.log);
    app.addHook('preClose', async () => stopExpiry());
  },
  { name: 'licenses', dependencies: ['storage', 'events'] },
);
