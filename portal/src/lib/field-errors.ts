// Turns an API 400/409 message into an error shown beside the form field it names.
// The API names the field at the start ("email must match pattern …", "price is
// required", "socials.twitter must be string") or after "Unknown" ("Unknown customerId: …").

export interface FieldError {
  /** The form field the message is about, or null when none of the form's fields is named. */
  field: string | null;
  /** A sentence for a person, without the field name when it sits beside the field. */
  message: string;
}

const REWRITES: [RegExp, (match: RegExpMatchArray) => string][] = [
  [/^is required$/, () => 'This field is required.'],
  [/^must NOT have fewer than 1 characters?$/, () => 'This field is required.'],
  [/^must NOT have fewer than (\d+) characters$/, (m) => `Must be at least ${m[1]} characters.`],
  [/^must NOT have more than (\d+) characters$/, (m) => `Must be at most ${m[1]} characters.`],
  [/^must NOT have more than (\d+) items$/, (m) => `At most ${m[1]} may be chosen.`],
  [/^must NOT have fewer than (\d+) items$/, (m) => `Choose at least ${m[1]}.`],
  [/^must match (?:pattern|format) .*$/, () => 'Is not in the expected format.'],
  [/^must be integer(,null)?$/, () => 'Must be a whole number.'],
  [/^must be number(,null)?$/, () => 'Must be a number.'],
  [/^must be string(,null)?$/, () => 'Must be text.'],
  [/^must be string$/, () => 'Must be text.'],
  [/^must be boolean$/, () => 'Must be yes or no.'],
  [/^must be (>=|>) (-?[\d.]+)$/, (m) => `Must be ${m[1] === '>=' ? 'at least' : 'more than'} ${m[2]}.`],
  [/^must be (<=|<) (-?[\d.]+)$/, (m) => `Must be ${m[1] === '<=' ? 'at most' : 'less than'} ${m[2]}.`],
  [/^has an invalid value$/, () => 'Has an invalid value.'],
];

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'Has an invalid value.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** "must be integer" → "Must be a whole number."; unknown phrases are kept, capitalised. */
export function friendlyReason(reason: string): string {
  const text = reason.trim();
  for (const [pattern, rewrite] of REWRITES) {
    const match = text.match(pattern);
    if (match) return rewrite(match);
  }
  return sentence(text);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Finds which of `fields` the API message is about. Longer names win, so a form with
 * `socials.twitter` gets "socials.twitter must be string" rather than `socials`.
 */
export function fieldErrorFrom(apiMessage: string, fields: readonly string[]): FieldError {
  const message = apiMessage.trim();
  const byLength = [...fields].sort((a, b) => b.length - a.length);

  for (const field of byLength) {
    const leading = new RegExp(`^${escapeRegExp(field)}(?:\\.[\\w.]+)?\\s+(.*)$`, 'si');
    const match = message.match(leading);
    if (match) return { field, message: friendlyReason(match[1] ?? '') };
  }

  const unknown = message.match(/^Unknown (\w+)\b:?\s*(.*)$/s);
  if (unknown && fields.includes(unknown[1]!)) {
    return { field: unknown[1]!, message: `Does not exist${unknown[2] ? `: ${unknown[2]}` : ''}.`.replace(/\.\.$/, '.') };
  }

  for (const field of byLength) {
    if (new RegExp(`\\b${escapeRegExp(field)}\\b`).test(message)) return { field, message: sentence(message) };
  }
  return { field: null, message: sentence(message) };
}

export interface FormErrors {
  /** Message per field named by the API. */
  fields: Record<string, string>;
  /** A message for the whole form when no field is named (or the error is not a 400/409). */
  form: string | null;
}

/**
 * The errors a form shows for a failed save. `status` and `message` come from the
 * ApiError; anything else (network failure) is a form-level message.
 */
export function formErrorsFrom(error: { status: number; message: string } | null, fields: readonly string[]): FormErrors {
  if (!error) return { fields: {}, form: null };
  if (error.status === 400 || error.status === 409) {
    const found = fieldErrorFrom(error.message, fields);
    if (found.field) return { fields: { [found.field]: found.message }, form: null };
    return { fields: {}, form: found.message };
  }
  return { fields: {}, form: error.message };
}
