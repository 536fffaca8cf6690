// Outbound webhooks in this instance: the delivery worker, started once the app is ready
// and stopped on close. What to deliver comes from the events module's outbox.
import fp from 'fastify-plugin';
import { DeliveryWorker } from './delivery-worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    webhookWorker: DeliveryWorker;
  }
}

export const webhooksPlugin = fp(
  async (app) => {
    const worker = new DeliveryWorker(
      app.storage,
      { retryScheduleSeconds: app.config.webhookRetryScheduleSeconds, allowPrivateNetworks: app.config.webhookAllowPrivateNetworks },
      app.log,
    );
    app.decorate('webhookWorker', worker);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', () => worker.stop());
  },
  { name: 'webhooks', dependencies: ['storage', 'events'] },
);
