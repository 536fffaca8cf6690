// A second instance of the service in its own process, for tests of several processes
// sharing one database: `node --import tsx test/helpers/child-app.ts` with DATABASE_URL
// (and any other settings) in the environment; prints {"port": n} once listening.
import { buildApp } from '../../src/app.js';
import { testConfig } from './test-app.js';

const { DATABASE_URL, ...env } = process.env as Record<string, string>;
const app = await buildApp(testConfig(DATABASE_URL!, env), { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
