// Schemas shared by every module.
import { Type } from '@sinclair/typebox';

export const IdParams = Type.Object({ id: Type.String({ description: 'Record id' }) });

export const ErrorSchema = Type.Object(
  { error: Type.String({ description: 'What went wrong, naming the field when a field is at fault' }) },
  { description: 'Error' },
);

/** 204 responses have no body. */
export const NoContent = Type.Null({ description: 'No content' });
