import { Type, type Static } from '@sinclair/typebox';

const Id = (description: string, examples: string[]) =>
  Type.Union([Type.String({ maxLength: 100 }), Type.Integer({ minimum: 0 })], { description, examples });

/** What BuiltByBit's "Custom" purchase-webhook template sends (docs/selling.md gives the template). */
export const BuiltByBitPurchaseBodySchema = Type.Object({
  secret: Type.String({ maxLength: 1000, description: 'MARKETPLACE_SECRET, written into the template (compared in constant time)' }),
  user_id: Id('The buyer ({user_id}); the customer whose socials.MarketplaceID it is (created when new)', ['123456']),
  resource_id: Id("The resource bought ({resource_id}): a product's or a tier's marketplaceResourceId", ['4242']),
  addon_id: Type.Optional(
    Id("The addon bought ({addon_id}), if any: when it is a product's or a tier's marketplaceResourceId, it names what is sold; empty: none", ['77']),
  ),
  purchase_date: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,15}$' })], {
    description: 'When it was bought ({purchase_date}), epoch seconds, a number or numeric text',
    examples: ['1767225600'],
  }),
  price: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ maxLength: 30 })], {
      description: "What the buyer paid ({final_price}), a decimal: the order's amount (omitted or empty: the product's price)",
      examples: ['9.99'],
    }),
  ),
});
export type BuiltByBitPurchaseBody = Static<typeof BuiltByBitPurchaseBodySchema>;

export const BuiltByBitPurchaseAnswerSchema = Type.Object({
  licenseKey: Type.String({ description: "The buyer's license key" }),
  created: Type.Boolean({ description: 'A new license (false: the held one was converted, renewed or reused)' }),
  step: Type.Unsafe<'conversion' | 'renewal' | 'reuse' | 'new'>({
    type: 'string',
    enum: ['conversion', 'renewal', 'reuse', 'new'],
    description: 'What the purchase did',
  }),
  orderId: Type.Union([Type.String(), Type.Null()], { description: 'The order recorded' }),
});

export const BuiltByBitIgnoredAnswerSchema = Type.Object({
  ignored: Type.Literal('unknown resource', { description: 'No product or tier is sold under the resource (or addon) id: nothing done, audited' }),
});

export type BuiltByBitAnswer = Static<typeof BuiltByBitPurchaseAnswerSchema> | Static<typeof BuiltByBitIgnoredAnswerSchema>;
