import { describe, expect, it } from 'vitest';
import { scaleTop } from './components/validations-chart';

describe('scaleTop', () => {
  it('rounds the tallest bar up to a round top with a whole-number half', () => {
    expect(scaleTop(0)).toBe(1);
    expect(scaleTop(1)).toBe(1);
    expect(scaleTop(3)).toBe(4);
    expect(scaleTop(7)).toBe(8);
    expect(scaleTop(9)).toBe(10);
    expect(scaleTop(13)).toBe(20);
    expect(scaleTop(450)).toBe(600);
  });
});
