// GET /metrics and its collectors (metrics.routes.ts). Registered before the routes: its
// timing hook is added to the root and must be there when they are.
import fp from 'fastify-plugin';
import { registerMetrics } from './metrics.routes.js';

export const metricsPlugin = fp((app) => registerMetrics(app, app.storage.pool), { name: 'metrics', dependencies: ['storage', 'http'] });
