// Shared-key detection in this instance, started with the app and stopped on close.
import type { FastifyInstance } from 'fastify';
import { SharingDetector } from './sharing.detector.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts distinct IPs/HWIDs per license against its sharing alert (observe() after each validation). */
    sharing: SharingDetector;
  }
}

/** Routes whose writes may change a sharing alert: this instance reads the settings again before answering. */
const SETTING_ROUTES = new Set(['/products', '/products/:id', '/licenses', '/licenses/:id']);

export async function startSharingDetection(app: FastifyInstance): Promise<void> {
  const detector = new SharingDetector(app.db, app.log);
  await detector.start();
  app.decorate('sharing', detector);
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' || reply.statusCode >= 300 || !SETTING_ROUTES.has(request.routeOptions.url ?? '')) return;
    // A PUT replaces the setting (omitted: null); a POST or PATCH changes it only when it names it.
    const body = request.body;
    const names = typeof body === 'object' && body !== null && 'sharingAlert' in body;
    if (request.method === 'PUT' || names) await detector.reloadSettings();
  });
  app.addHook('preClose', () => detector.stop());
}
