import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt';

describe('excerpt', () => {
  it('keeps a short one-line answer whole', () => {
    expect(excerpt(' ok ')).toEqual({ short: 'ok', truncated: false });
    expect(excerpt('')).toEqual({ short: '', truncated: false });
  });

  it('cuts a long answer with an ellipsis', () => {
    expect(excerpt('x'.repeat(100), 10)).toEqual({ short: `${'x'.repeat(10)}…`, truncated: true });
  });

  it('shows only the first line of a longer answer', () => {
    expect(excerpt('<html>\n<body>boom</body>')).toEqual({ short: '<html>…', truncated: true });
  });
});
