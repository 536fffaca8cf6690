// Reading form inputs into API values: optional integers, numbers, trimmed text.

/** "" → null (unlimited / not set); otherwise a whole number ≥ 0, or the text itself to let the API name the error. */
export function optionalInteger(text: string): number | null | string {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A number typed by a person ("12.50", "12,50"); non-numbers pass through for the API to reject. */
export function requiredNumber(text: string): number | string {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return trimmed;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : text;
}

/** Trimmed text, or undefined when empty (optional fields the API clears when omitted). */
export function optionalText(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Input value for a nullable number. */
export const numberInput = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
