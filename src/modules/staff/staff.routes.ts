import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, IdParams, NoContent } from '../../http/schemas.js';
import { RegisterBodySchema, SetActiveBodySchema, SetRolesBodySchema, StaffSchema } from './staff.schemas.js';
import { assertMayAssign, assertNotOwnAccount } from '../roles/grant-rules.js';
import * as staff from './staff.service.js';

const tags = ['Staff'];

export const staffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/staff/register',
    {
      schema: {
        tags,
        summary: 'Register a staff account with a single-use registration key',
        description:
          'Checks in order: missing fields 400; unknown key 403 `Invalid registration key`; used key 403 ' +
          '`This registration key has already been used`; password under 8 characters 400; username taken 409; ' +
          'unknown roleIds 400; then, for a key made with `roleIds`, a role it does not grant 403 ' +
          '`The registration key does not grant role <id>`. A failed registration leaves the key unused. The username ' +
          'is unique after NFKC normalisation and case folding, and may not look like an existing one (the same UTS #39 ' +
          'confusable skeleton, e.g. Cyrillic `рорѕ` beside `pops`): 409 `Username already taken`. It may use only ' +
          "characters of UTS #39's General Security Profile (Identifier_Status=Allowed: no spaces, symbols, small " +
          'capitals, fullwidth forms or invisible characters), no stray combining marks, and not mix Latin, Cyrillic, ' +
          'Greek, Armenian or Cherokee letters (400 naming `username`).',
        body: RegisterBodySchema,
        response: {
          201: StaffSchema,
          403: ErrorAnswer('The registration key is unknown or already used, or does not grant a requested role'),
          409: ErrorAnswer('`Username already taken`'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await staff.register(app.db, request.body)),
  );

  app.get(
    '/staff',
    { config: { permission: 'staff:read' }, schema: { tags, summary: 'List staff accounts', response: { 200: Type.Array(StaffSchema) } } },
    async () => staff.listStaff(app.db),
  );

  app.get(
    '/staff/:id',
    {
      config: { permission: 'staff:read' },
      schema: { tags, summary: 'Get a staff account', params: IdParams, response: { 200: StaffSchema } },
    },
    async (request) => staff.getStaff(app.db, request.params.id),
  );

  app.put(
    '/staff/:id/roles',
    {
      config: { permission: 'staff:manage' },
      // Before the body is read: one's own role set is not one's to change.
      preValidation: async (request) => assertNotOwnAccount(request.actor, (request.params as { id: string }).id),
      schema: {
        tags,
        summary: "Replace an account's roles",
        description:
          'Nobody changes their own roles: 403 `You cannot change your own privileges` (the Master Admin: 403 ' +
          '`The Master Admin account cannot be changed`). With `ROLE_GRANTS=subset`, a caller other than the Master Admin ' +
          'assigns only roles whose permissions it holds: 403 `Cannot grant permissions you do not hold: <list>`.',
        params: IdParams,
        body: SetRolesBodySchema,
        response: {
          200: StaffSchema,
          403: ErrorAnswer(
            'Lacks `staff:manage`, targets its own account or the Master Admin, or (subset mode) assigns a permission it does not hold',
          ),
        },
      },
    },
    async (request) =>
      app.transaction((trx) =>
        staff.setRoles(trx, request.actor.username, request.params.id, request.body.roleIds, (roleIds) =>
          assertMayAssign(trx, request.actor, app.config.roleGrants, roleIds),
        ),
      ),
  );

  app.put(
    '/staff/:id/active',
    {
      config: { permission: 'staff:manage' },
      schema: {
        tags,
        summary: 'Activate or deactivate an account (effective on its next request)',
        params: IdParams,
        body: SetActiveBodySchema,
        response: { 200: StaffSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => staff.setActive(trx, request.actor.username, request.params.id, request.body.active)),
  );

  app.delete(
    '/staff/:id',
    {
      config: { permission: 'staff:manage' },
      schema: { tags, summary: 'Delete a staff account', params: IdParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await app.transaction((trx) => staff.deleteStaff(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
