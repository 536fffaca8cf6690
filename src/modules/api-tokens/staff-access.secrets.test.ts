// No secret (API token, TOTP secret, recovery code, password) or its hash reaches a
// log line, an audit entry or a later answer. The app logs at trace level into memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { ADMIN, createTestDatabase, DIALECTS, testConfig, type TestDatabase } from '../../../test/helpers/test-app.js';
import { request, type RequestOptions } from '../../../test/helpers/http.js';
import { base32Decode, codeForStep, stepAt } from '../two-factor/totp.js';

describe.each(DIALECTS)('staff access secrets stay secret (%s)', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let baseUrl: string;
  const lines: string[] = [];
  const req = (method: string, path: string, opts?: RequestOptions) => request(baseUrl, method, path, opts);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(testConfig(database.url), { logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('keeps tokens, TOTP secrets, recovery codes, passwords and their hashes out of logs, audit entries and answers', async () => {
    const login = await req('POST', '/auth/login', { body: ADMIN });
    const token = login.json.token as string;
    const created = await req('POST', '/api-tokens', { token, body: { name: 'ci', permissions: ['*'], expiresAtEpochMillis: null } });
    const apiToken = created.json.token as string;
    await req('GET', '/customers', { token: apiToken });
    const enrol = await req('POST', '/staff/me/totp', { token });
    const secret = enrol.json.secret as string;
    const confirm = await req('POST', '/staff/me/totp/confirm', { token, body: { password: ADMIN.password, code: codeForStep(base32Decode(secret), stepAt(Date.now())) } });
    const recoveryCodes = confirm.json.recoveryCodes as string[];
    await req('POST', '/auth/login', { body: { ...ADMIN, totp: recoveryCodes[0] } });
    await req('PUT', '/staff/me/password', { token, body: { currentPassword: ADMIN.password, newPassword: 'a-new-admin-password' } });
    await req('POST', '/auth/logout', { token });

    const staff = await app.db.selectFrom('staff').selectAll().where('username', '=', ADMIN.username).executeTakeFirstOrThrow();
    const tokenRow = await app.db.selectFrom('api_tokens').selectAll().executeTakeFirstOrThrow();
    const codeRows = await app.db.selectFrom('staff_recovery_codes').selectAll().execute();
    const secrets = [
      apiToken.slice(4),
      tokenRow.token_hash,
      secret,
      ...recoveryCodes,
      ...codeRows.map((r) => r.code_hash),
      'a-new-admin-password',
      ADMIN.password,
      staff.password_hash,
      token.split('.')[2]!,
    ];
    const audit = await app.db.selectFrom('audit_entries').select('data').execute();
    const relogin = await req('POST', '/auth/login', { body: { username: ADMIN.username, password: 'a-new-admin-password', totp: recoveryCodes[1] } });
    const fresh = relogin.json.token as string;
    const later = [
      (await req('GET', '/api-tokens', { token: fresh })).text,
      (await req('GET', '/staff/me', { token: fresh })).text,
      (await req('GET', '/actions?limit=1000', { token: apiToken })).text,
    ];
    expect(later.map((text) => text.length > 20)).toEqual([true, true, true]);
    expect(lines.length).toBeGreaterThan(10);
    const haystacks = { logs: lines.join('\n'), audit: audit.map((a) => a.data).join('\n'), answers: later.join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const value of secrets) expect(text.includes(value), `${where} contains a secret`).toBe(false);
    }
  });
});
