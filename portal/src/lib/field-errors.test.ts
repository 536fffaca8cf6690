import { describe, expect, it } from 'vitest';
import { fieldErrorFrom, formErrorsFrom, friendlyReason } from './field-errors';

const CUSTOMER_FIELDS = ['name', 'email', 'socials.twitter', 'socials.linkedin', 'socials', 'note'];

describe('fieldErrorFrom', () => {
  it('maps a schema error to the field it starts with', () => {
    expect(fieldErrorFrom('email must match pattern "^[^@\\s]+@[^@\\s]+$"', CUSTOMER_FIELDS)).toEqual({
      field: 'email',
      message: 'Is not in the expected format.',
    });
    expect(fieldErrorFrom('name is required', CUSTOMER_FIELDS)).toEqual({ field: 'name', message: 'This field is required.' });
  });

  it('prefers the most specific field name', () => {
    expect(fieldErrorFrom('socials.twitter must be string', CUSTOMER_FIELDS).field).toBe('socials.twitter');
    expect(fieldErrorFrom('socials.MarketplaceID must be string', CUSTOMER_FIELDS)).toEqual({ field: 'socials', message: 'Must be text.' });
  });

  it('does not confuse a field with a longer name that starts the same', () => {
    expect(fieldErrorFrom('maxIpsExtra is required', ['maxIps']).field).toBeNull();
  });

  it('maps "Unknown <field>: …" reference errors', () => {
    expect(fieldErrorFrom('Unknown customerId: 0190-abc', ['customerId', 'productId'])).toEqual({
      field: 'customerId',
      message: 'Does not exist: 0190-abc.',
    });
  });

  it('finds a field named later in the message', () => {
    const result = fieldErrorFrom('Another product already uses marketplaceResourceId 123', ['name', 'marketplaceResourceId']);
    expect(result.field).toBe('marketplaceResourceId');
    expect(result.message).toBe('Another product already uses marketplaceResourceId 123.');
  });

  it('matches the field at the start regardless of case', () => {
    expect(fieldErrorFrom('Password must be at least 8 characters', ['username', 'password'])).toEqual({
      field: 'password',
      message: 'Must be at least 8 characters.',
    });
  });

  it('returns no field when the message names none of the form', () => {
    expect(fieldErrorFrom('Request body must be a JSON object', CUSTOMER_FIELDS)).toEqual({
      field: null,
      message: 'Request body must be a JSON object.',
    });
  });
});

describe('friendlyReason', () => {
  it.each([
    ['must be integer', 'Must be a whole number.'],
    ['must be >= 0', 'Must be at least 0.'],
    ['must be <= 2147483647', 'Must be at most 2147483647.'],
    ['must NOT have fewer than 1 characters', 'This field is required.'],
    ['must NOT have more than 200 characters', 'Must be at most 200 characters.'],
    ['has an invalid value', 'Has an invalid value.'],
    ['already taken', 'Already taken.'],
  ])('%s → %s', (reason, expected) => {
    expect(friendlyReason(reason)).toBe(expected);
  });
});

describe('formErrorsFrom', () => {
  it('puts 400 and 409 messages on the field they name', () => {
    expect(formErrorsFrom({ status: 400, message: 'price must be >= 0' }, ['price'])).toEqual({
      fields: { price: 'Must be at least 0.' },
      form: null,
    });
    expect(formErrorsFrom({ status: 409, message: 'Username already taken' }, ['username'])).toEqual({
      fields: { username: 'Already taken.' },
      form: null,
    });
  });

  it('keeps other statuses and unnamed fields for the whole form', () => {
    expect(formErrorsFrom({ status: 403, message: 'Missing permission: customers:write' }, ['name'])).toEqual({
      fields: {},
      form: 'Missing permission: customers:write',
    });
    expect(formErrorsFrom({ status: 400, message: 'Request body is not valid JSON' }, ['name']).form).toBe('Request body is not valid JSON.');
    expect(formErrorsFrom(null, ['name'])).toEqual({ fields: {}, form: null });
  });
});
