// Two instances of the service on one fresh database, for a suite of tests: started before
// its tests and handed to `started`, stopped (and the database dropped) after them.
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, startTestApp, type TestApp, type TestDatabase, type TestDialect } from './test-app.js';

export function startTwoInstances(dialect: TestDialect, env: Record<string, string>, started: (apps: { a: TestApp; b: TestApp }) => void): void {
  let database: TestDatabase | undefined;
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await startTestApp(dialect, env, database);
    b = await startTestApp(dialect, env, database);
    started({ a, b });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });
}
