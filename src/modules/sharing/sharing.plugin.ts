// Shared-key detection in this instance, started with the app and stopped on close.
import fp from 'fastify-plugin';
import { SETTING_CHANGES, SharingDetector } from './sharing.detector.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts distinct IPs/HWIDs per license against its sharing alert (observe() after each validation). */
    sharing: SharingDetector;
  }
}

export const sharingPlugin = fp(
  async (app) => {
    const detector = new SharingDetector(app.db, app.log);
    await detector.start();
    app.decorate('sharing', detector);
    // A product or license change committed here is in force before its answer is sent;
    // one made on another instance within SETTINGS_POLL_MS.
    app.changeFeed.on(SETTING_CHANGES, (change) => detector.settingChanged(change));
    app.addHook('preClose', () => detector.stop());
  },
  { name: 'sharing', dependencies: ['storage', 'events'] },
);
