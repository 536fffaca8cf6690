import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isPaged } from '../../db/list-queries.js';
import { ListResponse, sendList } from '../../http/list-response.js';
import { STREAMED_LIST_NOTE, streamList } from '../../http/list-stream.js';
import { ErrorSchema, IdParams, NoContent } from '../../http/schemas.js';
import { ProductBodySchema, ProductNameSchema, ProductPatchSchema, ProductQuerySchema, ProductSchema } from './products.schemas.js';
import * as products from './products.service.js';

const tags = ['Products'];

export const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get(
    '/products',
    {
      config: { permission: 'products:read' },
      schema: {
        tags,
        summary: 'List products, oldest first unless `order=desc`',
        description:
          'Without query parameters, every product, oldest first. `limit`/`offset` page the list; `q` filters it by name; ' +
          '`sort`/`order` choose the order. ' +
          '`X-Total-Count` says how many products match the filter in all.' + STREAMED_LIST_NOTE,
        querystring: ProductQuerySchema,
        response: { 200: ListResponse(ProductSchema, 'The products, with their total in X-Total-Count') },
      },
    },
    async (request, reply) =>
      isPaged(request.query)
        ? sendList(reply, await products.listProducts(app.db, request.query))
        : streamList(reply, ProductSchema, (writer) => app.longSnapshot((db) => products.streamProducts(db, request.query, writer))),
  );

  app.get(
    '/products/names',
    {
      config: { permission: 'licenses:read' },
      schema: {
        tags,
        summary: 'Product names, for those who read licenses',
        description:
          'Every product\'s id and name, by name. Needs only `licenses:read`, so that staff who see licenses ' +
          'but may not read products can tell which product a license is for.',
        response: { 200: Type.Array(ProductNameSchema) },
      },
    },
    async () => products.listProductNames(app.db),
  );

  app.post(
    '/products',
    {
      config: { permission: 'products:write' },
      schema: {
        tags,
        summary: 'Create a product',
        description: '409 when `marketplaceResourceId` or `polymartProductId` is already held by another product.',
        body: ProductBodySchema,
        response: { 201: ProductSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const product = await app.transaction((trx) => products.createProduct(trx, request.actor.username, request.body));
      return reply.code(201).send(product);
    },
  );

  app.get(
    '/products/:id',
    {
      config: { permission: 'products:read' },
      schema: { tags, summary: 'Get a product', params: IdParams, response: { 200: ProductSchema, 404: ErrorSchema } },
    },
    async (request) => products.getProduct(app.db, request.params.id),
  );

  app.put(
    '/products/:id',
    {
      config: { permission: 'products:write' },
      schema: {
        tags,
        summary: 'Replace a product (omitted optional fields become null)',
        description:
          'Existing licenses keep their limits; only licenses created afterwards inherit new maxIps/maxHwids. ' +
          '409 when `marketplaceResourceId` or `polymartProductId` is already held by another product.',
        params: IdParams,
        body: ProductBodySchema,
        response: { 200: ProductSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => products.updateProduct(trx, request.actor.username, request.params.id, request.body)),
  );

  app.patch(
    '/products/:id',
    {
      config: { permission: 'products:write' },
      schema: {
        tags,
        summary: 'Update some fields of a product (the others are kept)',
        description:
          'Fields given are set (null clears), the others are kept; the result must still be a valid product (for example ' +
          '`validForDays` with a clock `expiryBasis`). Audited as `products.update`. 409 as for PUT.',
        params: IdParams,
        body: ProductPatchSchema,
        response: { 200: ProductSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      app.transaction((trx) => products.patchProduct(trx, request.actor.username, request.params.id, request.body)),
  );

  app.delete(
    '/products/:id',
    {
      config: { permission: 'products:delete' },
      schema: {
        tags,
        summary: 'Delete a product',
        description: '409 while licenses or orders still reference the product; the message says how many.',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      await app.transaction((trx) => products.deleteProduct(trx, request.actor.username, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
