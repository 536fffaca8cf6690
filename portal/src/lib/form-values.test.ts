import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, prettyJson, toDateTimeLocal } from './format';
import { numberInput, optionalInteger, optionalText, requiredNumber } from './form-values';

describe('form values', () => {
  it('reads limits: empty is unlimited, whole numbers are numbers, anything else goes to the API as typed', () => {
    expect(optionalInteger('')).toBeNull();
    expect(optionalInteger(' 3 ')).toBe(3);
    expect(optionalInteger('0')).toBe(0);
    expect(optionalInteger('2.5')).toBe('2.5');
    expect(optionalInteger('-1')).toBe('-1');
  });

  it('reads prices with a dot or a comma', () => {
    expect(requiredNumber('19.99')).toBe(19.99);
    expect(requiredNumber('19,99')).toBe(19.99);
    expect(requiredNumber('abc')).toBe('abc');
  });

  it('drops empty optional text and shows null numbers as empty inputs', () => {
    expect(optionalText('  ')).toBeUndefined();
    expect(optionalText(' x ')).toBe('x');
    expect(numberInput(null)).toBe('');
    expect(numberInput(0)).toBe('0');
  });

  it('round-trips datetime-local values and treats empty as none', () => {
    const millis = new Date(2026, 4, 17, 9, 30).getTime();
    expect(toDateTimeLocal(millis)).toBe('2026-05-17T09:30');
    expect(fromDateTimeLocal('2026-05-17T09:30')).toBe(millis);
    expect(fromDateTimeLocal('')).toBeNull();
    expect(toDateTimeLocal(null)).toBe('');
  });

  it('pretty-prints JSON snapshots and leaves other text alone', () => {
    expect(prettyJson('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});
