import { describe, expect, it } from 'vitest';
import { referencesText } from './references';

describe('referencesText', () => {
  it('names what still refers to a record, or nothing', () => {
    expect(referencesText(2, 1)).toBe('2 licenses and 1 order still refer to it');
    expect(referencesText(0, 3)).toBe('3 orders still refer to it');
    expect(referencesText(1, 0)).toBe('1 license still refers to it');
    expect(referencesText(0, 0)).toBeNull();
    expect(referencesText(undefined, undefined)).toBeNull();
  });
});
