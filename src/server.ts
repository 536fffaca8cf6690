// Server entry: load config, build the app, listen; on SIGTERM/SIGINT stop accepting,
// finish requests in flight and close the database.
import { buildApp } from './app.js';
import { startBanner } from './banner.js';
import { ConfigError, loadConfig } from './config.js';

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

  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // On stderr: stdout stays one JSON object per line for log collectors.
  process.stderr.write(startBanner(config, port, app.generatedAdmin));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
