// PostgreSQL text cannot hold the NUL character (SQLite can): such a value is refused
// up front (src/http/reject-nul.ts) instead of failing in the database with a 500.

const containsNul = (text: string): boolean => text.includes('\u0000');

/** Dotted path of the first string or object key in `value` holding a NUL ('' for the root), or null. */
export function findNulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return containsNul(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (containsNul(key)) return itemPath;
    const found = findNulPath(item, itemPath);
    if (found !== null) return found;
  }
  return null;
}
