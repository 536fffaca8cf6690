import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../http/client-ip.js';
import { validationRateLimit } from '../../http/rate-limit.js';
import { ErrorSchema } from '../../http/schemas.js';
import { ReleaseBodySchema, ReleaseResultSchema, ValidateBodySchema, ValidateResultSchema } from '../licenses/licenses.schemas.js';
import { RELEASE_NOT_ENABLED, RELEASE_NOT_FOUND, selfRelease } from './self-release.service.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { signCompact } from '../signing/jws.js';
import { pinnedKids } from '../signing/key-ring.js';
import { receiptPolicyFields } from './receipt-fields.js';
import { createBatchSigner } from '../signing/batch-signer.js';

const RECEIPT_HEADER = 'Validation-Receipt';

/** Self-service release from a blocked IP or naming a blocked HWID (DECISIONS.md). */
const RELEASE_BLOCKED = 'Blocked';

export const validationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Batch-signed receipts: one signature per tree of answers committed together (signing/batch-signer.ts).
  const batchSigner = createBatchSigner(app.signingKeys);
  app.addHook('onClose', async () => {
    await batchSigner.close();
  });

  app.post(
    '/licenses/validate',
    {
      // Counts every request, before its body is read: malformed ones count too.
      onRequest: validationRateLimit(app),
      // Every attempt is in the license's history; a log line per call would only be noise.
      logLevel: 'warn',
      schema: {
        tags: ['Licenses'],
        summary: 'Validate a license (public)',
        description:
          'Checks in order: the blocklist (a matching `block` rule on the caller\'s IP or the hwid: reason BLOCKED), product match, ' +
          'expiry (at or past is expired), IP slot, HWID slot; the first failure ' +
          'answers `{"valid": false}`. A new IP or HWID is bound only when every check passes. Every attempt is ' +
          'recorded with its reason; an unknown license is `{"valid": false}` and records nothing. Missing or ' +
          'non-string fields are 400. A revoked license is refused as REVOKED (after the product check, before expiry). In ' +
          "the license's grace days (graceDays) IPs and HWIDs already bound validate (reason GRACE) and new ones are refused. " +
          'The first passing validation of a firstValidation license starts its expiry clock. With revealReasons (license, ' +
          'else product) the body is `{"valid", "reason"}`. With a `nonce`, the answer carries a `Validation-Receipt` header: a compact JWS ' +
          '(EdDSA, typ validation-receipt) over {licenseId, productId, hwid, nonce, ip, valid, timestampEpochMillis, ' +
          'expiresAtEpochMillis, graceEndsAtEpochMillis (null unless in grace), features (the effective ones), ' +
          'slotTimeoutMinutes, and reason where revealed}, verifiable with GET /.well-known/jwks.json. A request naming another ' +
          "product than the license's learns none of the license's facts: its receipt says what an unknown license's does " +
          '(expiresAtEpochMillis, graceEndsAtEpochMillis and slotTimeoutMinutes null, features {}), plus the reason where revealed. A client sends the kids it pins in `Receipt-Key-Ids: kid1, kid2`: the receipt is ' +
          'signed with the current key if listed, else with a retired key it lists, else with the current key (a next key never signs; ' +
          'a malformed header is ignored). With `"receiptFormat": "batch"` and a nonce, the header is instead the batch form ' +
          '`hdr..sig~claims~idx~path`: claims = base64url of the same payload plus `salt` (16 random bytes, base64url); the answers ' +
          'committed together form Merkle trees of fixed depth 10 (RFC 9162 hashing: leaf SHA-256(0x00 ‖ claims), node SHA-256(0x01 ‖ left ‖ right), ' +
          'empty places hold empty-subtree hashes); idx is the leaf index (decimal, its bits LSB first say the side at each level), path the ' +
          '10 sibling hashes leaf to root (320 bytes, base64url), sig the Ed25519 signature over `hdr.base64url(root)` with header ' +
          '{alg EdDSA, kid, typ validation-receipt+mt}; signed after the attempts commit, with the key chosen as above at that moment. Rate limit: 30 requests per 60 s per client IP, an IPv6 client per /64 (both 200s and 400s count). The client IP is the connection peer (X-Forwarded-For only behind TRUST_PROXY).',
        body: ValidateBodySchema,
        response: {
          200: {
            ...ValidateResultSchema,
            description: 'The decision; with a nonce, also the signed receipt header',
            headers: {
              'Validation-Receipt': Type.String({ description: 'Compact JWS, or with receiptFormat batch `hdr..sig~claims~idx~path`; present iff the request had a nonce' }),
            },
          },
          429: { ...ErrorSchema, description: 'More than VALIDATION_RATE_LIMIT (default 30) requests in 60 s from this IP; see Retry-After' },
        },
      },
    },
    async (request, reply) => {
      const { licenseId, productId, hwid, nonce, receiptFormat, version } = request.body;
      const ip = clientIp(request);
      const { valid, decidedAtEpochMillis, outcome, committedWith, deprecated } = await app.validation.check({ licenseId, productId, hwid, ip, version });
      if (nonce !== undefined) {
        // The time the recorded attempt carries.
        const payload = {
          licenseId, productId, hwid, nonce, ip, valid, timestampEpochMillis: decidedAtEpochMillis, ...receiptPolicyFields(outcome),
          ...(deprecated ? { deprecated: true } : {}),
        };
        const kids = pinnedKids(request.headers['receipt-key-ids']);
        if (receiptFormat === 'batch') {
          // validate() resolved: the attempt is committed, so the answer may join a tree.
          reply.header(RECEIPT_HEADER, await batchSigner.sign(kids, payload, committedWith));
        } else {
          const key = await app.signingKeys.forClient(kids);
          reply.header(RECEIPT_HEADER, signCompact(key, 'validation-receipt', payload));
          app.signingKeys.signed(key);
        }
      }
      // An unknown license has no setting: its answer stays bare.
      return outcome?.revealReasons ? { valid, reason: outcome.reason } : { valid };
    },
  );

  app.post(
    '/licenses/release',
    {
      onRequest: validationRateLimit(app), // the same per-IP counter as /licenses/validate
      schema: {
        tags: ['Licenses'],
        summary: 'Free a machine of a license (public, self-service)',
        description:
          'Authenticated by the license key: unbinds the named `hwid` and/or `ip` when they are bound, so that another ' +
          'machine can validate. Needs `selfReleaseLimit` on the license (null: 403). A call that frees something counts ' +
          'once against that limit over a rolling 30 days (past it: 429 with Retry-After, nothing freed); a call that ' +
          'frees nothing counts nothing. Audited as `licenses.slot.release` (reason `self`, by `self-service`); the ' +
          "license's version does not change. Counts toward the validation rate limit of the client IP.",
        body: ReleaseBodySchema,
        response: {
          200: { ...ReleaseResultSchema, description: 'What was freed, and how many self-releases the 30 days still allow' },
          400: { ...ErrorSchema, description: 'A field is missing, empty or not a string, or neither hwid nor ip is given' },
          403: { ...ErrorSchema, description: `${RELEASE_NOT_ENABLED}; or \`${RELEASE_BLOCKED}\`: the caller's IP or the named hwid is blocked (nothing is released)` },
          404: { ...ErrorSchema, description: `${RELEASE_NOT_FOUND}: unknown key, or a product that is not the license's` },
          429: {
            ...ErrorSchema,
            description:
              'The self-release limit is used up (Retry-After: seconds until the oldest counted release is 30 days old), ' +
              'or the validation rate limit of this IP',
          },
        },
      },
    },
    async (request) => {
      if (request.body.hwid === undefined && request.body.ip === undefined) throw badRequest('body must name hwid or ip (or both)');
      const { licenseId, productId, hwid } = request.body;
      if (app.blocklist.check({ ip: clientIp(request), hwid, licenseId, productId })) throw forbidden(RELEASE_BLOCKED);
      return selfRelease(app.storage, request.body);
    },
  );
};
