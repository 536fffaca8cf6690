import { Type, type Static } from '@sinclair/typebox';
import { MAX_AMOUNT } from '../products/products.schemas.js';

export const RenewBodySchema = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 36500, description: "Days to add (omitted: the product's recurringPeriodDays; 400 naming `days` without one)", examples: [30] }),
    ),
    amount: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: 'What the customer paid: with it, an order `renewal` is recorded', examples: [4.99] }),
    ),
  },
  { description: 'Optional: an empty body renews by the product\'s period and records no order' },
);
export type RenewBody = Static<typeof RenewBodySchema>;
