import { Type, type Static } from '@sinclair/typebox';
import { PageQueryProperties, SortQueryProperties } from '../../http/schemas.js';
import { MAX_AMOUNT } from '../products/products.schemas.js';

const RecordId = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** What a purchase did (docs/selling.md); orders made by hand are `new` unless they say otherwise. */
export const ORDER_KINDS = ['new', 'renewal', 'conversion', 'upgrade', 'reuse'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

const Kind = (description: string) => Type.Unsafe<OrderKind>({ type: 'string', enum: [...ORDER_KINDS], description, examples: ['renewal'] });

export const OrderSchema = Type.Object({
  id: Type.String({ description: 'Order id (UUIDv7)' }),
  customerId: Type.String({ description: 'The buying customer' }),
  productIds: Type.Array(Type.String(), { description: 'Products bought, in the order given (repeats allowed)' }),
  totalAmount: Type.Number({ description: "In the account's base currency" }),
  licenseIds: Type.Array(Type.String(), { description: 'Associated licenses, in the order given' }),
  createdAtEpochMillis: Type.Number({ description: 'When the order was created' }),
  kind: Kind(
    'What was bought: new (a new license), renewal (a subscription period), conversion (a trial converted), upgrade ' +
      '(a tier change without renewal, a lower tier too), reuse (a purchase that left the held license as it was)',
  ),
  licenseId: Type.Union([Type.String(), Type.Null()], { description: 'The license the purchase is about; null: none' }),
  refundedAtEpochMillis: Type.Optional(
    Type.Number({
      description:
        'When the purchase was refunded (a Polymart refund or chargeback, or staff); absent while it stands. `totalAmount` stays ' +
        'what was paid: revenue is the sum over orders without refundedAtEpochMillis (`GET /orders?refunded=false`).',
    }),
  ),
});
export type Order = Static<typeof OrderSchema>;

export const OrderBodySchema = Type.Object(
  {
    customerId: RecordId('Id of an existing customer (400 `Unknown customerId: …` otherwise)'),
    productIds: Type.Array(RecordId('Product id'), {
      minItems: 1,
      maxItems: 100,
      description: 'One or more existing product ids; order is kept and repeats are allowed',
      examples: [['0190f0f0-0000-7000-8000-000000000001']],
    }),
    totalAmount: Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: "In the account's base currency", examples: [39.98] }),
    licenseIds: Type.Optional(
      Type.Array(RecordId('License id (the license key)'), {
        maxItems: 100,
        description: 'Existing license ids to associate; order is kept, a repeated id is listed once',
        examples: [['ABCDE-FGHJK-MNPQR-STVWX-YZ012']],
      }),
    ),
    kind: Type.Optional(Kind('Omitted: new on POST, unchanged on PUT')),
    licenseId: Type.Optional(
      Type.Union([RecordId('An existing license id'), Type.Null()], {
        description: 'The license the purchase is about (joined to licenseIds). Omitted: the first of licenseIds, else null.',
      }),
    ),
    refundedAtEpochMillis: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'When the purchase was refunded; null: it stands. Omitted: null on POST, unchanged on PUT.',
        examples: [null],
      }),
    ),
  },
  {
    description: 'An order. On PUT the whole record is replaced: omitted `licenseIds` become `[]` (an omitted `refundedAtEpochMillis` is kept).',
    examples: [{ customerId: '0190f0f0-0000-7000-8000-00000000000c', productIds: ['0190f0f0-0000-7000-8000-000000000001'], totalAmount: 19.99 }],
  },
);
export type OrderBody = Static<typeof OrderBodySchema>;

export const OrderQuerySchema = Type.Object({
  ...PageQueryProperties,
  ...SortQueryProperties(['createdAt', 'totalAmount']),
  customerId: Type.Optional(Type.String({ maxLength: 200, description: 'Only orders of this customer' })),
  productId: Type.Optional(Type.String({ maxLength: 200, description: 'Only orders containing this product' })),
  licenseId: Type.Optional(Type.String({ maxLength: 200, description: 'Only orders holding this license (among `licenseIds`, where `licenseId` always is): what its sale, renewals and upgrades recorded' })),
  refunded: Type.Optional(Type.Boolean({ description: 'true: only refunded orders; false: only orders that stand (revenue)' })),
});
export type OrderQuery = Static<typeof OrderQuerySchema>;
