import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isPaged } from '../../db/list-queries.js';
import { ListResponse, sendList } from '../../http/list-response.js';
import { STREAMED_LIST_NOTE, streamList } from '../../http/list-stream.js';
import { ErrorSchema, IdParams, NoContent } from '../../http/schemas.js';
import { CreateLicenseBodySchema, LicenseSchema, ListLicensesQuerySchema, PatchLicenseBodySchema, RevokeBodySchema, UpdateLicenseBodySchema } from './licenses.schemas.js';
import * as licenses from './licenses.service.js';

const tags = ['Licenses'];

export const licensesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/licenses',
    {
      config: { permission: 'licenses:read' },
      schema: {
        tags,
        summary: 'List licenses with their bindings and validation history, oldest first unless `order=desc`',
        description:
          'Without query parameters every license is returned, oldest first. `limit`/`offset` page through them; ' +
          '`customerId`, `productId`, `key` (part of the key, ignoring case) and `status` (active/expired) filter them; ' +
          '`sort`/`order` choose the order. `X-Total-Count` says how many licenses match the filters in all.' + STREAMED_LIST_NOTE,
        querystring: ListLicensesQuerySchema,
        response: { 200: ListResponse(LicenseSchema, 'The licenses, with their total in X-Total-Count') },
      },
    },
    async (request, reply) => {
      const historyMax = app.config.validationHistoryMax;
      if (isPaged(request.query)) return sendList(reply, await app.snapshot((db) => licenses.listLicenses(db, request.query, historyMax)));
      return streamList(reply, LicenseSchema, (writer) =>
        app.longSnapshot((db) => licenses.streamLicenses(db, request.query, historyMax, writer)),
      );
    },
  );

  app.post(
    '/licenses',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags,
        summary: 'Issue a license (omitted slot limits take the product defaults)',
        description: 'Unknown `productId` or `customerId` is 400.',
        body: CreateLicenseBodySchema,
        response: { 201: LicenseSchema },
      },
    },
    async (request, reply) => {
      const license = await app.transaction((trx) => licenses.createLicense(trx, request.actor.username, request.body));
      return reply.code(201).send(license);
    },
  );

  app.get(
    '/licenses/:id',
    {
      config: { permission: 'licenses:read' },
      schema: { tags, summary: 'Get a license with its bindings and validation history', params: IdParams, response: { 200: LicenseSchema } },
    },
    async (request) => app.snapshot((db) => licenses.getLicense(db, request.params.id, app.config.validationHistoryMax)),
  );

  app.put(
    '/licenses/:id',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags,
        summary: 'Replace a license (optimistic concurrency on `version`)',
        description:
          'Omitted `expiresAtEpochMillis`, `maxIps`, `maxHwids` (and every policy setting: expiryBasis fixed, features {}) ' +
          'become null; omitted `usedIps`, `usedHwids`, `validationAttempts` become empty: a PUT without ' +
          '`validationAttempts` erases the validation history (use PATCH to change some fields). The lists given replace ' +
          'the stored ones. A `version` other than the stored one is 409 `Version conflict: expected <stored>, got <given>`; ' +
          'on success the version grows by 1.',
        params: IdParams,
        body: UpdateLicenseBodySchema,
        response: { 200: LicenseSchema, 409: { ...ErrorSchema, description: 'The stored version differs from the one given' } },
      },
    },
    async (request) =>
      app.transaction((trx) =>
        licenses.updateLicense(trx, request.actor.username, request.params.id, request.body, app.config.validationHistoryMax),
      ),
  );

  app.patch(
    '/licenses/:id',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags,
        summary: 'Update some fields of a license (the others, the bindings and the history are kept)',
        description:
          'Fields given are set (null clears; `features` replaces the license\'s overrides as a whole); `usedIps`, ' +
          '`usedHwids` and `validationAttempts` change only when given. `version` is optional: given and different from ' +
          'the stored one, 409. Setting `expiresAtEpochMillis` ends a revocation and starts a clock not yet started. ' +
          'The version grows by 1; audited as `licenses.update`.',
        params: IdParams,
        body: PatchLicenseBodySchema,
        response: { 200: LicenseSchema, 409: { ...ErrorSchema, description: 'The stored version differs from the one given' } },
      },
    },
    async (request) =>
      app.transaction((trx) =>
        licenses.patchLicense(trx, request.actor.username, request.params.id, request.body, app.config.validationHistoryMax),
      ),
  );

  app.delete(
    '/licenses/:id',
    {
      config: { permission: 'licenses:delete' },
      schema: {
        tags,
        summary: 'Delete a license (it disappears from every order)',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) =>
        licenses.deleteLicense(trx, request.actor.username, request.params.id, app.config.validationHistoryMax),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/licenses/:id/revoke',
    {
      config: { permission: 'licenses:write', openapi: { optionalBody: true } },
      preValidation: async (request) => {
        request.body ??= {}; // the reason is optional, and so is the body
      },
      schema: {
        tags,
        summary: 'Revoke a license (a refund, a chargeback, abuse)',
        description:
          'The license expires now: validation answers `{"valid": false}` (reason REVOKED, never grace) from the next request on. ' +
          'The expiry it replaces is kept for a reinstatement; `revokedAtEpochMillis` and `revokedReason` show it; ' +
          'version + 1; audited `licenses.revoke`. A PUT clears the revoked state.',
        params: IdParams,
        body: RevokeBodySchema,
        response: { 200: LicenseSchema, 409: { ...ErrorSchema, description: 'License is already revoked' } },
      },
    },
    async (request) =>
      app.transaction((trx) =>
        licenses.revokeLicense(trx, request.actor.username, request.params.id, request.body.reason ?? null, app.config.validationHistoryMax),
      ),
  );

  app.post(
    '/licenses/:id/reinstate',
    {
      config: { permission: 'licenses:write' },
      schema: {
        tags,
        summary: 'Reinstate a revoked license: its former expiry comes back',
        description: 'version + 1; audited `licenses.reinstate`.',
        params: IdParams,
        response: { 200: LicenseSchema, 409: { ...ErrorSchema, description: 'License is not revoked' } },
      },
    },
    async (request) =>
      app.transaction((trx) => licenses.reinstateLicense(trx, request.actor.username, request.params.id, app.config.validationHistoryMax)),
  );
};
