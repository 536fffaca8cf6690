// Request validation: bodies are checked strictly (no type coercion: "5" is not a
// number), query strings and path params are coerced from text. Errors name the field.
import type { FastifyError, FastifyInstance } from 'fastify';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { NOTHING_TO_CHANGE } from './patch-bodies.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, useDefaults: true, ...options });
  addFormats(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv({ coerceTypes: false });
  const coercing = createAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}

const PART_NAMES: Record<string, string> = { body: 'Request body', querystring: 'Query', params: 'Path' };

/** "productId is required", "price must be number", "socials.twitter must be string". */
export function formatValidationError(error: FastifyError): string {
  const first = error.validation?.[0] as ErrorObject | undefined;
  const part = PART_NAMES[error.validationContext ?? 'body'] ?? 'Request';
  if (!first) return `${part} is invalid`;
  const path = first.instancePath.split('/').filter(Boolean).join('.');
  if (first.keyword === 'required') {
    const missing = (first.params as { missingProperty: string }).missingProperty;
    return `${path ? `${path}.` : ''}${missing} is required`;
  }
  if (!path) {
    // Only PATCH bodies set minProperties: `{}` is refused as patch-bodies.ts refuses `{"foo":1}`.
    if (first.keyword === 'minProperties') return NOTHING_TO_CHANGE;
    return first.keyword === 'type' ? `${part} must be a JSON ${(first.params as { type: string }).type}` : `${part} ${first.message}`;
  }
  if (first.keyword === 'enum') {
    return `${path} must be one of: ${(first.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  }
  // A union of a type and null reports its branches separately; say what was allowed.
  if (first.keyword === 'anyOf') return `${path} has an invalid value`;
  return `${path} ${first.message ?? 'is invalid'}`;
}
