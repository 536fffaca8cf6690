// The keys that sign validation receipts and license files, loaded at start; the last
// minute's signing times are saved on close (preClose: before the database closes).
import fp from 'fastify-plugin';
import { createKeyRing, type KeyRing } from './key-ring.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Keys that sign validation receipts and license files. */
    signingKeys: KeyRing;
  }
}

export const signingPlugin = fp(
  async (app) => {
    app.decorate(
      'signingKeys',
      await createKeyRing(app.db, app.config.signingKey, (err) => app.log.error({ err }, 'signing keys: last signing time not saved')),
    );
    app.addHook('preClose', () => app.signingKeys.flush());
  },
  { name: 'signing', dependencies: ['storage'] },
);
