// The licenses module's background work in this instance: the expiring/expired scan
// (expiry-notices.ts), started with the app and stopped on close.
import type { FastifyInstance } from 'fastify';
import { startExpiryNotices } from './expiry-notices.js';

export async function startLicenses(app: FastifyInstance): Promise<void> {
  const stopExpiry = startExpiryNotices(app.storage, app.webhookSubscriptions, app.log);
  app.addHook('preClose', async () => stopExpiry());
}
