import { Type } from '@sinclair/typebox';

export const AccountSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  isMasterAdmin: Type.Boolean(),
  permissions: Type.Array(Type.String(), { description: 'Union of the roles\' permissions; ["*"] for the Master Admin' }),
  role: Type.String(),
  totpEnabled: Type.Boolean({ description: 'Two-factor sign-in is on' }),
});

const Password = (description: string) => Type.String({ maxLength: 1024, description });

export const ChangePasswordBodySchema = Type.Object({
  currentPassword: Password('Your current password'),
  newPassword: Password('At least 8 characters'),
});

export const SetPasswordBodySchema = Type.Object({ newPassword: Password('At least 8 characters') });

export const TotpEnrolmentSchema = Type.Object({
  secret: Type.String({ description: 'Base32 TOTP secret (shown only now; enter it or scan otpauthUri)' }),
  otpauthUri: Type.String({ description: 'otpauth://totp/… URI for an authenticator app (QR code)' }),
});

export const TotpConfirmBodySchema = Type.Object({
  code: Type.String({ maxLength: 16, description: 'A current 6-digit code' }),
  password: Password('Your current password (a stolen sign-in token alone cannot turn two-factor sign-in on)'),
});

export const RecoveryCodesSchema = Type.Object({
  recoveryCodes: Type.Array(Type.String(), {
    minItems: 10,
    maxItems: 10,
    description: 'Ten single-use codes that replace a TOTP code at sign-in; shown only now (stored hashed)',
  }),
});

export const TotpDisableBodySchema = Type.Object({ password: Password('Your current password') });
