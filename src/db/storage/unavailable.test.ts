import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P03', 'the database system is starting up'),
    withCode('57014', 'canceling statement due to statement timeout'),
    withCode('08006'),
    withCode('ECONNREFUSED'),
    withCode('ECONNRESET'),
    withCode('SQLITE_BUSY'),
    withCode('SQLITE_BUSY_SNAPSHOT'),
    withCode('SQLITE_FULL'),
    withCode('SQLITE_IOERR_WRITE'),
    withCode('SQLITE_READONLY'),
    withCode('SQLITE_CANTOPEN'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
  ])('takes %s as the database being unavailable', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    withCode('23505', 'duplicate key'),
    withCode('42601', 'syntax error'),
    withCode('22003', 'value out of range'),
    withCode('SQLITE_CONSTRAINT_UNIQUE'),
    withCode('SQLITE_MISMATCH'),
    new Error('something else'),
    new AggregateError([withCode('ECONNREFUSED'), new Error('other')]),
    null,
    'ECONNREFUSED',
  ])('takes %s as a fault of its own (500)', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
