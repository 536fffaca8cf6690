// Reads a multipart webhook body into plain key/value fields, as a preValidation hook.
// Every fault of the body is the client's: a missing or absurd boundary, a boundary
// that never appears, a truncated body (400); too many parts or fields, a file, or a
// field longer than the limit (413, as form and JSON bodies over their limit get).
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.js';

/** Longest field value accepted, in bytes (form fields: the form body limit). */
export const MULTIPART_FIELD_LIMIT = 8 * 1024;
export const MULTIPART_LIMITS = { fields: 20, fieldSize: MULTIPART_FIELD_LIMIT, files: 0, parts: 20 };

export async function readMultipartFields(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string | string[]> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') throw new HttpError(413, 'Files are not accepted');
      if (part.valueTruncated || part.fieldnameTruncated) {
        throw new HttpError(413, `Field ${part.fieldname.slice(0, 64)} is longer than ${MULTIPART_FIELD_LIMIT} bytes`);
      }
      // A repeated field becomes a list, as in a form body: the schema then rejects it (400).
      const previous = fields[part.fieldname];
      const value = String(part.value);
      fields[part.fieldname] = previous === undefined ? value : [previous, value].flat();
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) throw new HttpError(413, 'Too many fields in the multipart body');
    // busboy's own errors ("Boundary not found", "Unexpected end of form", …) carry no status.
    throw new HttpError(400, 'Malformed multipart body');
  }
  request.body = fields;
}
