import { describe, expect, it } from 'vitest';
import { usePrettyLogs } from './logger.js';

describe('log format', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT decides', () => {
    expect(usePrettyLogs(null, true)).toBe(true);
    expect(usePrettyLogs(null, false)).toBe(false);
    expect(usePrettyLogs('json', true)).toBe(false);
    expect(usePrettyLogs('pretty', false)).toBe(true);
  });
});
