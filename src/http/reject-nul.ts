// A preHandler for JSON routes whose body is stored as text: a NUL character anywhere in
// the body is a 400 naming the field (runs after schema validation, before the 404 checks).
import type { FastifyRequest } from 'fastify';
import { findNulPath } from '../lib/text.js';
import { badRequest } from './errors.js';

export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  const path = findNulPath(request.body);
  if (path !== null) throw badRequest(`${path || 'Request body'} must not contain NUL characters`);
}
