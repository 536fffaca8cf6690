import { describe, expect, it } from 'vitest';
import { buildUrl, errorMessage, fallbackMessage, totalCount } from './api-client';

describe('buildUrl', () => {
  it('adds query parameters and leaves out empty ones', () => {
    expect(buildUrl('/customers', { q: 'acme & co', email: '', limit: 21, offset: 0, productId: undefined, x: null })).toBe(
      '/customers?q=acme+%26+co&limit=21&offset=0',
    );
    expect(buildUrl('/licenses')).toBe('/licenses');
  });
});

describe('errorMessage', () => {
  it('uses the API error text for client errors', () => {
    expect(errorMessage(401, { error: 'Account is deactivated' })).toBe('Account is deactivated');
    expect(errorMessage(409, { error: 'Version conflict: expected 3, got 2' })).toBe('Version conflict: expected 3, got 2');
  });

  it('never shows a body that is not an {error} object, or a server error text', () => {
    expect(errorMessage(400, '<html>oops</html>')).toBe('Request failed (400).');
    expect(errorMessage(404, undefined)).toBe(fallbackMessage(404));
    expect(errorMessage(500, { error: 'Internal server error' })).toBe('Something went wrong on the server. Please try again.');
    expect(errorMessage(502, { error: 'Bad gateway details' })).toBe(fallbackMessage(500));
    expect(errorMessage(400, { error: { nested: true } })).toBe('Request failed (400).');
  });
});

describe('totalCount', () => {
  it('reads X-Total-Count', () => {
    expect(totalCount('95', 20)).toBe(95);
    expect(totalCount('0', 0)).toBe(0);
  });

  it('falls back to the records shown when the header is missing or not a count', () => {
    for (const header of [null, '', ' ', 'many', '-1', '2.5']) expect(totalCount(header, 3), String(header)).toBe(3);
  });
});
