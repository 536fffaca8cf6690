// Schemas shared by every module.
import { Type } from '@sinclair/typebox';

export const IdParams = Type.Object({ id: Type.String({ description: 'Record id' }) });

export const ErrorSchema = Type.Object(
  { error: Type.String({ description: 'What went wrong, naming the field when a field is at fault' }) },
  { description: 'Error' },
);

/** A route's own error answer, worded for it: `409: ErrorAnswer('Username already taken')`. */
export const ErrorAnswer = (description: string) => ({ ...ErrorSchema, description });

/** 204 responses have no body. */
export const NoContent = Type.Null({ description: 'No content' });

/**
 * `string | null` as one JSON-Schema type list (not anyOf), so a wrong value is
 * reported as "note must be string,null" rather than an unnamed union failure.
 */
export const NullableString = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<string | null>({ ...options, type: ['string', 'null'] });

/** `integer | null`; `minimum`/`maximum` apply to the integer. */
export const NullableInteger = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<number | null>({ ...options, type: ['integer', 'null'] });

/** Largest page a list returns; a larger `limit` is clamped to it (as on GET /actions). */
export const MAX_PAGE_SIZE = 1000;

/** `limit`/`offset` of the record lists; without `limit` a list returns every record. */
export const PageQueryProperties = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Return at most this many records (values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}). Without it, every matching record is returned.`,
      examples: [100],
    }),
  ),
  offset: Type.Optional(
    // Bounded so that both databases accept it (1e20 or 2^64 would fail in the query).
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Skip this many records first (default 0)', examples: [0] }),
  ),
};

/**
 * `sort`/`order` of a record list. `fields` are the API field names it may sort by
 * (the first is the default); any other value is a 400 naming `sort`.
 */
export const SortQueryProperties = (fields: readonly [string, ...string[]]) => ({
  sort: Type.Optional(
    Type.String({
      enum: [...fields],
      description: `Field to sort by: ${fields.join(', ')} (default createdAt). Ties are broken by id.`,
      examples: ['createdAt'],
    }),
  ),
  order: Type.Optional(
    Type.Unsafe<'asc' | 'desc'>({
      type: 'string',
      enum: ['asc', 'desc'],
      description: 'asc (default) or desc; `sort=createdAt&order=desc` lists newest first.',
      examples: ['desc'],
    }),
  ),
});
