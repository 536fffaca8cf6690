// Releases as staff manage them: per product, create, read, change, delete, publish,
// deprecate, archive, and the downloads of each. The file upload and the trace take raw
// bodies (release-files.routes.ts); the public download and update check are in
// release-delivery.routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListResponse, sendList } from '../../http/list-response.js';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import * as releases from './releases.service.js';
import * as repo from './releases.repository.js';
import { toDownload } from './release-trace.js';
import {
  CreateReleaseBodySchema,
  DownloadQuerySchema,
  DownloadRecordSchema,
  PatchReleaseBodySchema,
  ReleaseQuerySchema,
  ReleaseSchema,
} from './releases.schemas.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';

const tags = ['Releases'];
const NOT_FOUND = ErrorAnswer(releases.RELEASE_NOT_FOUND);
const IN_FORCE = 'In force for validation (versions) at once on this instance and within a second on every other.';

export const releasesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/:id/releases',
    {
      config: { permission: 'releases:read' },
      schema: {
        tags,
        summary: "List a product's releases, newest first",
        description: 'Every release without `limit`; `limit`/`offset` page the list, `channel` and `status` filter it; `X-Total-Count` says how many match.',
        params: IdParams,
        querystring: ReleaseQuerySchema,
        response: { 200: ListResponse(ReleaseSchema, 'The releases, with their total in X-Total-Count'), 404: ErrorAnswer('Product not found') },
      },
    },
    async (request, reply) => sendList(reply, await releases.listReleases(app.db, request.params.id, request.query)),
  );

  app.post(
    '/products/:id/releases',
    {
      config: { permission: 'releases:write' },
      schema: {
        tags,
        summary: 'Create a release (a draft)',
        description: `A draft, invisible to licenses until published. Audited as \`releases.create\`. ${IN_FORCE}`,
        params: IdParams,
        body: CreateReleaseBodySchema,
        response: { 201: ReleaseSchema, 404: ErrorAnswer('Product not found'), 409: ErrorAnswer('The version exists in the channel') },
      },
    },
    async (request, reply) => {
      const release = await app.transaction((trx) => releases.createRelease(trx, request.actor.username, request.params.id, request.body));
      return reply.code(201).send(release);
    },
  );

  app.get(
    '/releases/:id',
    { config: { permission: 'releases:read' }, schema: { tags, summary: 'Get a release', params: IdParams, response: { 200: ReleaseSchema, 404: NOT_FOUND } } },
    async (request) => releases.getRelease(app.db, request.params.id),
  );

  app.patch(
    '/releases/:id',
    {
      config: { permission: 'releases:write' },
      schema: {
        tags,
        summary: "Change a release's notes (a draft's channel too)",
        description: `Audited as \`releases.update\`. ${IN_FORCE}`,
        params: IdParams,
        body: PatchReleaseBodySchema,
        response: { 200: ReleaseSchema, 404: NOT_FOUND, 409: ErrorAnswer('A published release keeps its channel, or the version exists in the other channel') },
      },
    },
    async (request) => app.transaction((trx) => releases.patchRelease(trx, request.actor.username, request.params.id, request.body)),
  );

  app.delete(
    '/releases/:id',
    {
      config: { permission: 'releases:write' },
      schema: {
        tags,
        summary: 'Delete a draft or archived release',
        description: `Its file and its download records go with it. Audited as \`releases.delete\`. ${IN_FORCE}`,
        params: IdParams,
        response: { 204: NoContent, 404: NOT_FOUND, 409: ErrorAnswer('Only a draft or archived release can be deleted') },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => releases.deleteRelease(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );

  const transitions = [
    ['publish', 'Publish a release', 'Licenses may have it from now (publishedAtEpochMillis is set the first time). Needs a file (409 `Release has no file`). Event `releases.published`.'],
    ['deprecate', 'Deprecate a release', 'Still delivered; a validation naming it answers with `"deprecated": true` in its signed receipt. Event `releases.deprecated`.'],
    ['archive', 'Archive a release', 'No longer delivered (404 to licenses); where the product refuses unsupported versions, a validation naming it is refused (VERSION_NOT_SUPPORTED). Event `releases.archived`.'],
  ] as const;
  for (const [to, summary, description] of transitions) {
    app.post(
      `/releases/:id/${to}`,
      {
        config: { permission: 'releases:write' },
        schema: {
          tags,
          summary,
          description: `${description} Audited as \`releases.${to}\`. ${IN_FORCE}`,
          params: IdParams,
          response: { 200: ReleaseSchema, 404: NOT_FOUND, 409: ErrorAnswer('Not from this status (e.g. already in it), or publishing without a file') },
        },
      },
      async (request) => app.transaction((trx) => releases.transition(trx, request.actor.username, request.params.id, to)),
    );
  }

  app.get(
    '/releases/:id/downloads',
    {
      config: { permission: 'releases:read' },
      schema: {
        tags,
        summary: 'List the downloads of a release, newest first',
        description: 'Every licensed download, with the sha256 of the bytes sent (a stamped jar is unique per download). `limit`/`offset` page the list.',
        params: IdParams,
        querystring: DownloadQuerySchema,
        response: { 200: ListResponse(DownloadRecordSchema, 'The downloads, with their total in X-Total-Count'), 404: NOT_FOUND },
      },
    },
    async (request, reply) => {
      await releases.getRelease(app.db, request.params.id);
      const page = { limit: request.query.limit === undefined ? undefined : Math.min(request.query.limit, MAX_PAGE_SIZE), offset: request.query.offset };
      const rows = await repo.listDownloads(app.db, request.params.id, page);
      const total = page.limit === undefined && page.offset === undefined ? rows.length : await repo.countDownloads(app.db, request.params.id);
      return sendList(reply, { records: rows.map(toDownload), total });
    },
  );
};

