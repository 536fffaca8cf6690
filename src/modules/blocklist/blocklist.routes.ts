import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListResponse, sendList } from '../../http/list-response.js';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { BlocklistRuleSchema, CreateRuleBodySchema, PatchRuleBodySchema, RuleQuerySchema } from './blocklist.schemas.js';
import * as rules from './blocklist.service.js';

const tags = ['Blocklist'];
const IN_FORCE =
  'In force at once on this instance and within a second on every other. Validation of a license checks the rules before ' +
  'anything else: a matching `block` rule refuses with reason BLOCKED (the attempt is recorded; nothing is bound, released or ' +
  'started), and self-service release from a blocked IP or naming a blocked HWID is 403 `Blocked`. A `flag` rule only counts hits.';

export const blocklistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** After a change: this instance enforces it before the change is answered. */
  const changed = () => app.blocklist.reload();

  app.get(
    '/blocklist',
    {
      config: { permission: 'blocklist:read' },
      schema: {
        tags,
        summary: 'List blocklist rules, oldest first unless `order=desc`',
        description:
          'Without query parameters, every rule. `limit`/`offset` page the list; `type`, `mode`, `scope`, `productId`, `licenseId`, ' +
          '`status` and `q` (value or note contains) filter it; `sort`/`order` choose the order. `X-Total-Count` says how many ' +
          'rules match the filters in all. `hits` and `lastHitAtEpochMillis` may lag up to 5 s.',
        querystring: RuleQuerySchema,
        response: { 200: ListResponse(BlocklistRuleSchema, 'The rules, with their total in X-Total-Count') },
      },
    },
    async (request, reply) => sendList(reply, await rules.listRules(app.db, request.query)),
  );

  app.post(
    '/blocklist',
    {
      config: { permission: 'blocklist:write' },
      schema: {
        tags,
        summary: 'Create a blocklist rule',
        description:
          'Scoped to everything (no productId/licenseId), a product or a license. A malformed address or CIDR is 400 naming `value`; ' +
          'an unknown productId/licenseId is 400 naming it; an expiry in the past is 400; the same type, normalised value and scope ' +
          `again is 409, whatever the mode. ${IN_FORCE}`,
        body: CreateRuleBodySchema,
        response: { 201: BlocklistRuleSchema, 409: ErrorAnswer('A rule of this type, value and scope exists') },
      },
    },
    async (request, reply) => {
      const rule = await app.transaction((trx) => rules.createRule(trx, request.actor.username, request.body));
      await changed();
      return reply.code(201).send(rule);
    },
  );

  app.get(
    '/blocklist/:id',
    {
      config: { permission: 'blocklist:read' },
      schema: { tags, summary: 'Get a blocklist rule', params: IdParams, response: { 200: BlocklistRuleSchema, 404: ErrorAnswer('Blocklist rule not found') } },
    },
    async (request) => rules.getRule(app.db, request.params.id),
  );

  app.patch(
    '/blocklist/:id',
    {
      config: { permission: 'blocklist:write' },
      schema: {
        tags,
        summary: 'Change a rule\'s mode, expiry or note',
        description: `Fields present are set, others kept; any other field (type, value, scope) is 400 naming it: delete and create instead. ${IN_FORCE}`,
        params: IdParams,
        body: PatchRuleBodySchema,
        response: { 200: BlocklistRuleSchema, 404: ErrorAnswer('Blocklist rule not found') },
      },
      // Before the generic PATCH check (patch-bodies.ts): here an unknown field is refused, not ignored.
      preHandler: async (request) => rules.checkPatchFields(request.body),
    },
    async (request) => {
      const rule = await app.transaction((trx) => rules.patchRule(trx, request.actor.username, request.params.id, request.body));
      await changed();
      return rule;
    },
  );

  app.delete(
    '/blocklist/:id',
    {
      config: { permission: 'blocklist:write' },
      schema: { tags, summary: 'Delete a blocklist rule', params: IdParams, response: { 204: NoContent, 404: ErrorAnswer('Blocklist rule not found') } },
    },
    async (request, reply) => {
      await app.transaction((trx) => rules.deleteRule(trx, request.actor.username, request.params.id));
      await changed();
      return reply.code(204).send(null);
    },
  );
};
