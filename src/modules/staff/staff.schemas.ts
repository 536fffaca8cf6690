import { Type, type Static } from '@sinclair/typebox';

export const StaffSchema = Type.Object({
  id: Type.String({ description: 'Account id (UUIDv7)' }),
  username: Type.String(),
  email: Type.String(),
  roleIds: Type.Array(Type.String(), { description: 'Assigned role ids, in assignment order' }),
  active: Type.Boolean({ description: 'Inactive accounts cannot authenticate' }),
  isMasterAdmin: Type.Boolean({ description: 'True only for the Master Admin' }),
});
export type StaffView = Static<typeof StaffSchema>;

const RoleIds = Type.Array(Type.String(), { maxItems: 100, description: 'Role ids', examples: [[]] });

export const RegisterBodySchema = Type.Object({
  registrationKey: Type.String({ description: 'An unused key from POST /admin/registration-keys' }),
  username: Type.String({ minLength: 1, maxLength: 100, examples: ['jane'] }),
  email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$', examples: ['jane@example.com'] }),
  password: Type.String({ maxLength: 1024, description: 'At least 8 characters' }),
  roleIds: RoleIds,
});
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const SetRolesBodySchema = Type.Object({ roleIds: RoleIds });
export const SetActiveBodySchema = Type.Object({ active: Type.Boolean() });
