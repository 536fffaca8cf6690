// Server entry: load config, listen at once (503 until ready), wait for the database,
// build the app and serve it on the same socket; on SIGTERM/SIGINT stop accepting,
// finish requests in flight and close the database.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { startBanner } from './banner.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseWaitTimeout, describeDatabase, isWaitedFor, waitForDatabase } from './db/wait-for-database.js';
import { createLogger } from './http/logger.js';
import { createStartingServer } from './http/starting-server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  const log = createLogger(config);
  const starting = createStartingServer();
  let app: FastifyInstance | null = null;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    // Still starting: nothing is open but the listener (and at most one database probe).
    const stopped = app ? app.close() : new Promise<void>((resolve) => starting.server.close(() => resolve()));
    if (!app) starting.server.closeAllConnections();
    stopped.then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await starting.listen(config.port, config.host);
  if (isWaitedFor(config.databaseUrl)) {
    const address = starting.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ host: config.host, port }, 'listening; answering 503 until the database is ready');
  }
  try {
    await waitForDatabase(config.databaseUrl, { maxWaitMs: config.databaseWaitSeconds * 1000, log });
  } catch (err) {
    if (closing) return;
    if (err instanceof DatabaseWaitTimeout) log.fatal(err.message);
    else log.fatal({ err, database: describeDatabase(config.databaseUrl) }, 'cannot use the database');
    process.exit(1);
  }
  if (closing) return;

  app = await buildApp(config, { loggerInstance: log, serverFactory: starting.serverFactory });
  await app.listen({ port: config.port, host: config.host });
  starting.serveApp();
  const address = starting.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // On stderr: stdout stays one JSON object per line for log collectors.
  process.stderr.write(startBanner(config, port, app.generatedAdmin));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
