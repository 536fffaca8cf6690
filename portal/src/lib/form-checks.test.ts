import { describe, expect, it } from 'vitest';
import { amount, email, minLength, optionalWholeNumber, required, runChecks } from './form-checks';

describe('form checks', () => {
  it('says in plain words what is wrong with a whole-number limit', () => {
    expect(optionalWholeNumber('')).toBeNull();
    expect(optionalWholeNumber('3')).toBeNull();
    expect(optionalWholeNumber('-1')).toBe('Cannot be negative.');
    expect(optionalWholeNumber('1.5')).toBe('Enter a whole number (no decimals).');
    expect(optionalWholeNumber('lots')).toBe('Enter a whole number, or leave it empty.');
  });

  it('checks amounts, emails, lengths and required fields', () => {
    expect(amount('')).toBe('Required.');
    expect(amount('12,50')).toBeNull();
    expect(amount('-3')).toBe('Cannot be negative.');
    expect(amount('abc')).toBe('Enter an amount such as 19.99.');
    expect(email('bob')).toBe('Enter an email address like name@example.com.');
    expect(email('bob@example.com')).toBeNull();
    expect(minLength(8)('short')).toBe('Use at least 8 characters.');
    expect(required('  ')).toBe('Required.');
  });

  it('reports every field at once', () => {
    expect(runChecks({ name: '', price: '', note: '' }, { name: required, price: amount })).toEqual({ name: 'Required.', price: 'Required.' });
  });
});
