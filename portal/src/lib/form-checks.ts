// Checks a form runs in the browser before it sends anything, so that every field's
// problem shows at once in plain words. The API still checks everything; its own
// messages are kept for what only the server knows (a taken id, a missing record).

/** A field's problem, or null. */
export type Check = (text: string) => string | null;

export const required: Check = (text) => (text.trim() === '' ? 'Required.' : null);

/** `something@something`, as the API accepts. */
export const email: Check = (text) =>
  text.trim() === '' ? 'Required.' : /^[^@\s]+@[^@\s]+$/.test(text.trim()) ? null : 'Enter an email address like name@example.com.';

/** Empty (unlimited / not set) or a whole number ≥ 0. */
export const optionalWholeNumber: Check = (text) => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^-?\d+([.,]\d+)?$/.test(trimmed)) return 'Enter a whole number, or leave it empty.';
  if (trimmed.startsWith('-')) return 'Cannot be negative.';
  return /^\d+$/.test(trimmed) ? null : 'Enter a whole number (no decimals).';
};

/** A required amount ≥ 0 ("12.50" or "12,50"). */
export const amount: Check = (text) => {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 'Required.';
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return 'Enter an amount such as 19.99.';
  return value < 0 ? 'Cannot be negative.' : null;
};

export const minLength =
  (min: number): Check =>
  (text) =>
    text === '' ? 'Required.' : text.length < min ? `Use at least ${min} characters.` : null;

/** The problems of `values` under `checks`, by field; fields without a problem are left out. */
export function runChecks<F extends string>(values: Record<F, string>, checks: Partial<Record<F, Check>>): Partial<Record<F, string>> {
  const problems: Partial<Record<F, string>> = {};
  for (const field of Object.keys(checks) as F[]) {
    const problem = checks[field]!(values[field] ?? '');
    if (problem) problems[field] = problem;
  }
  return problems;
}
