// Recognises constraint violations and retryable (busy) errors from either driver.

/** A unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// Recognises a foreign-key violation from either driver (a referenced row vanished, or
// a row is still referenced), e.g. when a delete races an insert that refers to it.
export function isForeignKeyViolation(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * SQLite's answer when another process holds the write lock or changed the snapshot:
 * the work may succeed when tried again (PostgreSQL waits on its locks instead).
 */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
