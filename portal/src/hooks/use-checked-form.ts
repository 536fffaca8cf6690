// A form's errors: the browser's own checks (every field at once, from the first submit
// on, each clearing as soon as its field is fixed) and the API's message for what only
// the server knows, shown beside its field until that field changes.
import { useState } from 'react';
import { runChecks, type Check } from '../lib/form-checks';
import { useFormErrors } from './use-form-errors';

export function useCheckedForm<F extends string>(
  values: Record<F, string>,
  checks: Partial<Record<F, Check>>,
  apiError: unknown,
  fields: readonly string[],
) {
  const [submitted, setSubmitted] = useState(false);
  const api = useFormErrors(apiError, fields);
  // The values when the API answered: its field error stays until that field changes.
  // Taken in the render that first sees the error (an effect would run after it, leaving
  // the message hidden until something else re-rendered the form).
  const [atApiError, setAtApiError] = useState<{ error: unknown; values: Record<string, string> }>({ error: apiError, values: { ...values } });
  if (atApiError.error !== apiError) setAtApiError({ error: apiError, values: { ...values } });

  const local = submitted ? runChecks(values, checks) : {};
  const fieldErrors: Record<string, string> = {};
  for (const [field, message] of Object.entries(api.fields)) {
    if ((values as Record<string, string>)[field] === atApiError.values[field]) fieldErrors[field] = message;
  }
  Object.assign(fieldErrors, local);

  return {
    fields: fieldErrors,
    form: api.form,
    /** True when the browser's checks pass; otherwise shows every problem and the form is not sent. */
    check(): boolean {
      setSubmitted(true);
      return Object.keys(runChecks(values, checks)).length === 0;
    },
  };
}
