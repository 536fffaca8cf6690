// The signed-in account's own settings (/staff/me…) and the Master Admin's password set.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MASTER_ADMIN, SIGNED_IN } from '../../http/authenticate.js';
import { clientIp } from '../../http/client-ip.js';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { passwordAttempts } from '../../http/password-attempts.js';
import * as twoFactor from '../two-factor/two-factor.service.js';
import {
  AccountSchema,
  ChangePasswordBodySchema,
  RecoveryCodesSchema,
  SetPasswordBodySchema,
  TotpConfirmBodySchema,
  TotpDisableBodySchema,
  TotpEnrolmentSchema,
} from './account.schemas.js';
import { changeOwnPassword, setPasswordOf } from './passwords.service.js';
import { findStaffById } from './staff.repository.js';
import { notFound } from '../../http/errors.js';

const tags = ['Account'];

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/staff/me',
    { config: { permission: SIGNED_IN }, schema: { tags, summary: 'Your own account', response: { 200: AccountSchema } } },
    async (request) => {
      const staff = await findStaffById(app.db, request.actor.id);
      if (!staff) throw notFound('Staff account not found');
      const { actor } = request;
      return {
        id: staff.id,
        username: staff.username,
        email: staff.email,
        isMasterAdmin: actor.isMasterAdmin,
        permissions: actor.permissions,
        role: actor.roleNames,
        totpEnabled: staff.totp_enabled === 1,
      };
    },
  );

  app.put(
    '/staff/me/password',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Change your password; every login token issued before it stops working',
        description:
          'newPassword under 8 characters: 400. Wrong currentPassword: 403 `Current password is wrong`; wrong ' +
          'answers count toward the login limit (10 in 15 minutes per client IP and per account, then 429). ' +
          'API tokens keep working (revoke them separately). Audited as `staff.changePassword` (no password in the data).',
        body: ChangePasswordBodySchema,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const attempts = passwordAttempts(app.loginLimiter, clientIp(request), request.actor.id);
      await changeOwnPassword(app.db, request.actor, attempts, request.body.currentPassword, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/staff/:id/password',
    {
      config: { permission: MASTER_ADMIN, refuseApiTokens: true },
      schema: {
        tags: ['Staff'],
        summary: "Set another account's password (ends its login tokens)",
        description:
          "Not the Master Admin's own password (403: it is changed with the current password at PUT /staff/me/password, " +
          'or with the reset-password CLI). API tokens are refused (403). Audited as `staff.setPassword` (no password in the data).',
        params: IdParams,
        body: SetPasswordBodySchema,
        response: {
          204: NoContent,
          403: ErrorAnswer('Not the Master Admin, an API token, or the target is the Master Admin'),
        },
      },
    },
    async (request, reply) => {
      await setPasswordOf(app.db, request.actor, request.params.id, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/staff/me/totp',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Start two-factor enrolment: a new pending TOTP secret',
        description:
          'The secret is shown only in this answer. Sign-in is unchanged until POST /staff/me/totp/confirm, which ' +
          'needs your password. ' +
          'Already enabled: 409.',
        response: { 200: TotpEnrolmentSchema },
      },
    },
    async (request) => twoFactor.startEnrolment(app.db, request.actor),
  );

  app.post(
    '/staff/me/totp/confirm',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Enable two-factor sign-in with your password and a current code; returns 10 recovery codes (shown once)',
        description:
          'Missing password or code: 400. Wrong password: 403 `Wrong password`, counted toward the login limit (10 in 15 ' +
          'minutes per client IP and per account, then 429). Wrong code: 400 `Invalid two-factor code`. No pending ' +
          'enrolment: 409. Audited as `staff.totp.enable`.',
        body: TotpConfirmBodySchema,
        response: { 200: RecoveryCodesSchema },
      },
    },
    async (request) => {
      const attempts = passwordAttempts(app.loginLimiter, clientIp(request), request.actor.id);
      return twoFactor.confirmEnrolment(app.db, request.actor, attempts, request.body.password, request.body.code);
    },
  );

  app.delete(
    '/staff/me/totp',
    {
      config: { permission: SIGNED_IN },
      schema: {
        tags,
        summary: 'Disable two-factor sign-in (needs your password)',
        description:
          'Wrong password: 403, counted toward the login limit (10 in 15 minutes per client IP and per account, then 429). ' +
          'Not enabled: 409. Audited as `staff.totp.disable`.',
        body: TotpDisableBodySchema,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const attempts = passwordAttempts(app.loginLimiter, clientIp(request), request.actor.id);
      await twoFactor.disable(app.db, request.actor, attempts, request.body.password);
      return reply.code(204).send(null);
    },
  );
};
