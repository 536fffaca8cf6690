// Outbound webhooks in this instance: the subscription set validations consult, the
// delivery worker, started with the app and stopped on close.
import type { FastifyInstance } from 'fastify';
import { DeliveryWorker } from './delivery-worker.js';
import { Subscriptions } from '../events/subscriptions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Which event types some enabled endpoint receives (validation consults it without a query). */
    webhookSubscriptions: Subscriptions;
    webhookWorker: DeliveryWorker;
  }
}

export async function startWebhooks(app: FastifyInstance): Promise<void> {
  const subscriptions = new Subscriptions(app.db);
  await subscriptions.start();
  const worker = new DeliveryWorker(
    app.storage,
    { retryScheduleSeconds: app.config.webhookRetryScheduleSeconds, allowPrivateNetworks: app.config.webhookAllowPrivateNetworks },
    app.log,
  );
  app.decorate('webhookSubscriptions', subscriptions);
  app.decorate('webhookWorker', worker);
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => {
    await worker.stop();
    await subscriptions.stop();
  });
}
