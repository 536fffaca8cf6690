// At start: the Master Admin exists (from MASTER_ADMIN_*, or generated on a first start).
import fp from 'fastify-plugin';
import { ensureMasterAdmin, type GeneratedAdmin } from './master-admin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Master Admin this start generated (first start without MASTER_ADMIN_*), for the start banner. */
    generatedAdmin: GeneratedAdmin | null;
  }
}

export const staffPlugin = fp(
  async (app) => {
    app.decorate('generatedAdmin', await ensureMasterAdmin(app.db, app.config.masterAdmin, app.log));
  },
  { name: 'staff', dependencies: ['storage'] },
);
