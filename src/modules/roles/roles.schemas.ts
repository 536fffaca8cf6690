import { Type, type Static } from '@sinclair/typebox';
import { PERMISSIONS, type Permission } from './permissions.js';

const PermissionSchema = Type.Unsafe<Permission>({
  type: 'string',
  enum: [...PERMISSIONS],
  description: 'A permission string `resource:action`',
});

export const RoleSchema = Type.Object({
  id: Type.String({ description: 'Role id (UUIDv7)' }),
  name: Type.String({ description: 'Human-readable name' }),
  permissions: Type.Array(Type.String(), { description: 'Permission strings granted by the role' }),
});
export type Role = Static<typeof RoleSchema>;

export const RoleBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'Human-readable name', examples: ['Support'] }),
  permissions: Type.Array(PermissionSchema, {
    maxItems: 100,
    description: 'The complete set of permissions (replaces the old one on update)',
    examples: [['customers:read', 'licenses:read']],
  }),
});
export type RoleBody = Static<typeof RoleBodySchema>;
