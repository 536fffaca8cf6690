// The service's OpenAPI document (what GET /openapi.json serves), from an app built on an
// in-memory SQLite database: nothing listens, nothing is kept.
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const app = await buildApp(
    loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: 'openapi-document-only-not-a-real-secret-0000',
      MASTER_ADMIN_USERNAME: 'openapi',
      MASTER_ADMIN_PASSWORD: 'openapi-document-only',
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
