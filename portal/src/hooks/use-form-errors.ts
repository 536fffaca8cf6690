// The field and form errors of a failed mutation, for a form with the given fields.
import { useMemo } from 'react';
import { ApiError } from '../lib/api-client';
import { formErrorsFrom, type FormErrors } from '../lib/field-errors';

export function useFormErrors(error: unknown, fields: readonly string[]): FormErrors {
  return useMemo(() => {
    if (!error) return { fields: {}, form: null };
    if (error instanceof ApiError) return formErrorsFrom(error, fields);
    return { fields: {}, form: 'Something went wrong. Please try again.' };
  }, [error, fields.join()]);
}
