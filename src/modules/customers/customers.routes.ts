import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isPaged } from '../../db/list-queries.js';
import { ListResponse, sendList } from '../../http/list-response.js';
import { STREAMED_LIST_NOTE, streamList } from '../../http/list-stream.js';
import { ErrorSchema, IdParams, NoContent } from '../../http/schemas.js';
import { CustomerBodySchema, CustomerPatchSchema, CustomerQuerySchema, CustomerSchema } from './customers.schemas.js';
import * as customers from './customers.service.js';

const tags = ['Customers'];

export const customersRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get(
    '/customers',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags,
        summary: 'List customers, oldest first unless `order=desc`',
        description:
          'Without query parameters, every customer, oldest first. `limit`/`offset` page the list; `email` and `q` filter it ' +
          '(both: contains the text, ignoring case); `sort`/`order` choose the order. ' +
          '`X-Total-Count` says how many customers match the filters in all.' + STREAMED_LIST_NOTE,
        querystring: CustomerQuerySchema,
        response: { 200: ListResponse(CustomerSchema, 'The customers, with their total in X-Total-Count') },
      },
    },
    async (request, reply) =>
      isPaged(request.query)
        ? sendList(reply, await customers.listCustomers(app.db, request.query))
        : streamList(reply, CustomerSchema, (writer) => app.longSnapshot((db) => customers.streamCustomers(db, request.query, writer))),
  );

  app.post(
    '/customers',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags,
        summary: 'Create a customer',
        description: '409 when `socials.MarketplaceID` is already held by another customer.',
        body: CustomerBodySchema,
        response: { 201: CustomerSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const customer = await app.transaction((trx) => customers.createCustomer(trx, request.actor.username, request.body));
      return reply.code(201).send(customer);
    },
  );

  app.get(
    '/customers/:id',
    {
      config: { permission: 'customers:read' },
      schema: { tags, summary: 'Get a customer', params: IdParams, response: { 200: CustomerSchema, 404: ErrorSchema } },
    },
    async (request) => customers.getCustomer(app.db, request.params.id),
  );

  app.put(
    '/customers/:id',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags,
        summary: 'Replace a customer (omitted socials become {}, an omitted note null)',
        params: IdParams,
        body: CustomerBodySchema,
        response: { 200: CustomerSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => customers.updateCustomer(trx, request.actor.username, request.params.id, request.body)),
  );

  app.patch(
    '/customers/:id',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags,
        summary: 'Update some fields of a customer (the others are kept)',
        description: 'Fields given are set (`socials` as a whole; null clears `note`); audited as `customers.update`.',
        params: IdParams,
        body: CustomerPatchSchema,
        response: { 200: CustomerSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => customers.patchCustomer(trx, request.actor.username, request.params.id, request.body)),
  );

  app.delete(
    '/customers/:id',
    {
      config: { permission: 'customers:delete' },
      schema: {
        tags,
        summary: 'Delete a customer',
        description: '409 while licenses or orders still reference the customer; the message says how many.',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => customers.deleteCustomer(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
