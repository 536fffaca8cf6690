// The start order is Fastify's to check, not a comment's: every plugin of the app names
// the plugins it needs, the app lists them after those, and one listed too early stops
// the start with Fastify's own error (before it touches a database).
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PLUGINS } from './app.js';
import { testConfig } from '../test/helpers/test-app.js';

interface PluginMeta {
  name: string;
  dependencies?: string[];
}
const metaOf = (plugin: unknown): PluginMeta => (plugin as Record<symbol, PluginMeta>)[Symbol.for('plugin-meta')]!;

describe('the app plugins', () => {
  const metas = PLUGINS.map(metaOf);

  it('are each named once, and each comes after every plugin it depends on', () => {
    const names = metas.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    metas.forEach((meta, i) => {
      for (const dependency of meta.dependencies ?? []) expect(names.slice(0, i), `${meta.name} needs ${dependency}`).toContain(dependency);
    });
    expect(metas.filter((m) => (m.dependencies ?? []).length > 0).length).toBeGreaterThan(10);
  });

  it.each(metas.filter((m) => (m.dependencies ?? []).length > 0).map((m) => m.name))('%s, listed before what it needs, stops the start', async (name) => {
    const app = Fastify({ logger: false });
    app.decorate('config', testConfig('sqlite::memory:'));
    const plugin = PLUGINS[metas.findIndex((m) => m.name === name)] as FastifyPluginAsync;
    await expect(app.register(plugin).ready()).rejects.toMatchObject({
      code: expect.stringMatching(/^FST_ERR_PLUGIN_(DEPENDENCY_NOT_REGISTERED|NOT_PRESENT_IN_INSTANCE)$/), // a plugin or a decorator it needs
    });
    await app.close().catch(() => undefined);
  });

  it('swapping two of them in the list stops the start with the name of what is missing', async () => {
    const events = PLUGINS.findIndex((p) => metaOf(p).name === 'events');
    const sharing = PLUGINS.findIndex((p) => metaOf(p).name === 'sharing');
    const app = Fastify({ logger: false });
    app.decorate('config', testConfig('sqlite::memory:'));
    // sharing before events (and before storage): refused before the database is opened
    await expect(app.register(PLUGINS[sharing] as FastifyPluginAsync).register(PLUGINS[events] as FastifyPluginAsync).ready()).rejects.toThrow(
      "The dependency 'storage' of plugin 'sharing' is not registered",
    );
    await app.close().catch(() => undefined);
  });
});
