// POST /auth/login: credentials in, a JWT and the caller's profile out.
import { Type } from '@sinclair/typebox';

export const LoginBodySchema = Type.Object({
  username: Type.String({ maxLength: 200, examples: ['admin'] }),
  password: Type.String({ maxLength: 1024, examples: ['correct horse battery staple'] }),
  totp: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'For accounts with two-factor sign-in: a current 6-digit code, or an unused recovery code',
    }),
  ),
});

export const SessionUserSchema = Type.Object({
  username: Type.String(),
  isMasterAdmin: Type.Boolean(),
  permissions: Type.Array(Type.String(), { description: 'Union of the roles\' permissions; ["*"] for the Master Admin' }),
  role: Type.String({ description: 'Role names joined by ", "; "Master Admin" for the Master Admin' }),
});

export const LoginResponseSchema = Type.Object({
  token: Type.String({ description: 'HS256 JWT, valid for 7 days; send as `Authorization: Bearer <token>`' }),
  user: SessionUserSchema,
});
