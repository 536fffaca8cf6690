// The public release routes: the licensed download and the update check. Both count
// against the validation rate limit of the client IP (one counter with POST /licenses/validate).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { clientIp } from '../../http/client-ip.js';
import { validationRateLimit } from '../../http/rate-limit.js';
import { ErrorAnswer, ErrorSchema } from '../../http/schemas.js';
import { sendSlices } from '../../http/send-slices.js';
import { reportReleaseSent } from '../../lib/observe.js';
import { signCompact } from '../signing/jws.js';
import { pinnedKids } from '../signing/key-ring.js';
import { NO_PUBLISHED_RELEASE, NO_SUCH_RELEASE } from './release-access.js';
import { download, latest } from './release-delivery.js';
import { DownloadBodySchema, LatestBodySchema, LatestResultSchema, RefusedDownloadSchema } from './releases.schemas.js';
import { clock } from '../../lib/clock.js';

const tags = ['Releases'];
const RATE_LIMITED = { ...ErrorSchema, description: 'More than VALIDATION_RATE_LIMIT (default 30) requests in 60 s from this IP (shared with POST /licenses/validate); see Retry-After' };
const Binary = { schema: { type: 'string', format: 'binary' } };

export const releaseDeliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const delivery = { db: app.db, validation: app.validation, signingKeys: app.signingKeys };

  app.post(
    '/releases/download',
    {
      onRequest: validationRateLimit(app),
      schema: {
        tags,
        summary: 'Download a release with a license (public)',
        description:
          'Decided exactly as POST /licenses/validate (blocklist, checks, bindings, the attempt recorded, rate limit). Then sends the ' +
          'named version of the channel (stable by default), or the newest published one, that the license may have: releases ' +
          'published no later than its updatesUntilEpochMillis (else its expiry, or the end of its grace; a perpetual license: all). ' +
          'A jar is stamped for this download: the placeholders %%__LICENSING_KEY__%%, %%__LICENSING_CUSTOMER__%%, %%__LICENSING_DOWNLOAD__%% ' +
          'and %%__LICENSING_NONCE__%% in its class files\' constant pools become the key, the customer id, the download id and a random ' +
          'value, and the entry META-INF/LICENSING-DOWNLOAD.jws (JWS typ download: {downloadId, licenseId, releaseId, sha256 of the ' +
          "release's file, iatEpochMillis}) is added. Each download is recorded (GET /releases/{id}/downloads).",
        body: DownloadBodySchema,
        response: {
          200: {
            description: 'The file; `X-Release-Sha256` is the sha256 of the bytes sent (of the stamped jar, for a jar)',
            headers: {
              'Content-Disposition': Type.String({ description: 'attachment; filename="…"' }),
              'X-Release-Version': Type.String({ description: 'The version sent' }),
              'X-Release-Sha256': Type.String({ description: 'Lowercase hex SHA-256 of the body' }),
              'X-Download-Id': Type.String({ description: 'The recorded download (stamped into a jar)' }),
              'Cache-Control': Type.String({ description: 'no-store' }),
            },
            content: { 'application/java-archive': Binary, 'application/octet-stream': Binary },
          },
          403: {
            ...RefusedDownloadSchema,
            description: 'The license is refused (the validation body), or may not have the release (reason RELEASE_NOT_ALLOWED where revealed)',
          },
          404: ErrorAnswer(`\`${NO_SUCH_RELEASE}\` (absent, a draft or archived) or \`${NO_PUBLISHED_RELEASE}\``),
          429: RATE_LIMITED,
        },
      },
    },
    async (request, reply) => {
      const answer = await download(delivery, request.body, clientIp(request));
      if ('refused' in answer) return reply.code(403).send(answer.refused);
      reportReleaseSent(answer.stamped, await sendSlices(reply, answer.headers, answer.slices));
      return reply;
    },
  );

  app.post(
    '/releases/latest',
    {
      onRequest: validationRateLimit(app),
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Ask whether a newer release exists (public)',
        description:
          'Whether the license would validate from this machine (binding and recording nothing; the version named is not refused ' +
          'here, so an archived build can still learn of its replacement), the newest release of the channel it may have, the named ' +
          'version\'s status, and whether that is an update. With a `nonce`, the header `Validation-Receipt` carries a JWS (EdDSA, ' +
          'typ release-check) over {licenseId, productId, hwid (null when not given), nonce, valid, latest, timestampEpochMillis}, ' +
          'verifiable with GET /.well-known/jwks.json (signed with the key `Receipt-Key-Ids` pins, as validation receipts are).',
        body: LatestBodySchema,
        response: {
          200: {
            ...LatestResultSchema,
            headers: { 'Validation-Receipt': Type.String({ description: 'Compact JWS (typ release-check); present iff the request had a nonce' }) },
          },
          429: RATE_LIMITED,
        },
      },
    },
    async (request, reply) => {
      const result = await latest(delivery, request.body, clientIp(request));
      const { licenseId, productId, hwid, nonce } = request.body;
      if (nonce !== undefined) {
        const key = await app.signingKeys.forClient(pinnedKids(request.headers['receipt-key-ids']));
        const payload = { licenseId, productId, hwid: hwid ?? null, nonce, valid: result.valid, latest: result.latest, timestampEpochMillis: clock.now() };
        reply.header('Validation-Receipt', signCompact(key, 'release-check', payload));
        app.signingKeys.signed(key);
      }
      return result;
    },
  );
};
