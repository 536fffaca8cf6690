import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isPaged } from '../../db/list-queries.js';
import { ListResponse, sendList } from '../../http/list-response.js';
import { STREAMED_LIST_NOTE, streamList } from '../../http/list-stream.js';
import { ErrorSchema, IdParams, NoContent } from '../../http/schemas.js';
import { OrderBodySchema, OrderQuerySchema, OrderSchema } from './orders.schemas.js';
import * as orders from './orders.service.js';

const tags = ['Orders'];
const REFERENCES = 'Unknown `customerId`, `productIds` or `licenseIds` are 400 (`Unknown customerId: …`).';

export const ordersRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get(
    '/orders',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        summary: 'List orders, oldest first unless `order=desc`',
        description:
          'Without query parameters, every order, oldest first. `limit`/`offset` page the list; `customerId`, `productId` and `licenseId` ' +
          'filter it; `sort`/`order` choose the order. ' +
          '`X-Total-Count` says how many orders match the filters in all.' + STREAMED_LIST_NOTE,
        querystring: OrderQuerySchema,
        response: { 200: ListResponse(OrderSchema, 'The orders, with their total in X-Total-Count') },
      },
    },
    async (request, reply) =>
      isPaged(request.query)
        ? sendList(reply, await orders.listOrders(app.db, request.query))
        : streamList(reply, OrderSchema, (writer) => app.longSnapshot((db) => orders.streamOrders(db, request.query, writer))),
  );

  app.post(
    '/orders',
    {
      config: { permission: 'orders:write' },
      schema: { tags, summary: 'Create an order', description: REFERENCES, body: OrderBodySchema, response: { 201: OrderSchema } },
    },
    async (request, reply) => {
      const order = await app.transaction((trx) => orders.createOrder(trx, request.actor.username, request.body));
      return reply.code(201).send(order);
    },
  );

  app.get(
    '/orders/:id',
    {
      config: { permission: 'orders:read' },
      schema: { tags, summary: 'Get an order', params: IdParams, response: { 200: OrderSchema, 404: ErrorSchema } },
    },
    async (request) => orders.getOrder(app.db, request.params.id),
  );

  app.put(
    '/orders/:id',
    {
      config: { permission: 'orders:write' },
      schema: {
        tags,
        summary: 'Replace an order (omitted licenseIds become [])',
        description: REFERENCES,
        params: IdParams,
        body: OrderBodySchema,
        response: { 200: OrderSchema, 404: ErrorSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => orders.updateOrder(trx, request.actor.username, request.params.id, request.body)),
  );

  app.delete(
    '/orders/:id',
    {
      config: { permission: 'orders:delete' },
      schema: { tags, summary: 'Delete an order', params: IdParams, response: { 204: NoContent, 404: ErrorSchema } },
    },
    async (request, reply) => {
      await app.transaction((trx) => orders.deleteOrder(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
