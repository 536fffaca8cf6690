import { Type } from '@sinclair/typebox';

/**
 * Polymart sends some ids as numbers (user ids, the placeholder's product) and some as
 * strings (a purchase's product id): either is accepted and used as its text.
 */
const PolymartId = (description: string, example: string) =>
  Type.Unsafe<string | number>({
    type: ['string', 'integer'],
    minLength: 1,
    maxLength: 100,
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: `${description} (string or integer)`,
    examples: [example],
  });

const Nonce = Type.String({ minLength: 1, maxLength: 200, description: 'Unique per request; a webhook redelivery repeats it' });

const webhookFields = {
  event: Type.String({
    minLength: 1,
    maxLength: 100,
    description: '`ping`, `product.user.purchase` or `product.user.purchaseRemoved`; any other event is acknowledged and ignored',
    examples: ['product.user.purchase'],
  }),
  time: Type.Number({ description: 'When Polymart sent it (Unix seconds); recorded, not checked: redeliveries come later', examples: [1764000000] }),
  nonce: Nonce,
};

/** What the route validates (after the signature): the payload is checked per event by the service. */
export const PolymartWebhookBodySchema = Type.Object({
  ...webhookFields,
  payload: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The event data' })),
});

/** The webhook's body as the API document shows it: what the purchase events carry. */
export const PolymartWebhookEventSchema = Type.Object(
  {
    ...webhookFields,
    payload: Type.Optional(
      Type.Object(
        {
          product: Type.Object({ id: PolymartId("Polymart product id: a product's polymartProductId", '4321') }),
          user: Type.Object({
            id: PolymartId('Polymart user id of the buyer', '12345'),
            username: Type.Optional(
              Type.String({ description: "The buyer's Polymart username: kept as the new customer's name and socials.PolymartUsername", examples: ['Notch'] }),
            ),
          }),
        },
        { description: 'Required by the purchase events; other fields Polymart sends (titles, URLs) are ignored' },
      ),
    ),
  },
  { description: 'Signed: `X-Polymart-Signature` is the hex HMAC-SHA256 of the raw body keyed with POLYMART_WEBHOOK_SECRET' },
);

export const PolymartPlaceholderBodySchema = Type.Object(
  {
    user: PolymartId('Polymart user id of the buyer', '12345'),
    product: PolymartId("Polymart product id: a product's polymartProductId", '4321'),
    nonce: Nonce,
    time: Type.Number({ description: "When Polymart sent it (Unix seconds); at most 300 s from the server's clock", examples: [1764000000] }),
    placeholder: Type.String({ maxLength: 200, description: 'The placeholder being filled in', examples: ['%%__LICENSE__%%'] }),
    license: Type.Optional(Type.String({ maxLength: 500, description: "Polymart's own license reference for the download; recorded" })),
    test: Type.Optional(
      Type.Boolean({
        description: "Sent by Polymart's test button: answered `TEST0-TEST0-TEST0-TEST0-TEST0` (404 for an unknown product), nothing created or recorded",
      }),
    ),
  },
  {
    description:
      'Signed: `X-Polymart-Signature` is the hex HMAC-SHA256 of the raw body keyed with POLYMART_PLACEHOLDER_SECRET ' +
      '(POLYMART_WEBHOOK_SECRET when unset)',
  },
);

const LicenseKey = Type.String({ description: 'The license key (the license id)', examples: ['0ABCD-1EFGH-2JKMN-3PQRS-4TVWX'] });

export const PolymartPurchaseAnswerSchema = Type.Object(
  { licenseKey: LicenseKey, created: Type.Boolean({ description: 'false: the buyer already held an active license, answered again' }) },
  { description: '`product.user.purchase`: the buyer\'s license' },
);
export const PolymartRefundAnswerSchema = Type.Object(
  {
    revokedLicenseIds: Type.Array(Type.String(), { description: 'The licenses revoked (reason `refund`); empty when none was active' }),
    ignored: Type.Optional(Type.String({ description: '`unknown product` or `unknown customer`: nothing to revoke', examples: ['unknown customer'] })),
  },
  { description: '`product.user.purchaseRemoved` (refund or chargeback): the orders of those licenses are marked refunded too' },
);
export const PolymartPingAnswerSchema = Type.Object({ ok: Type.Literal(true) }, { description: '`ping`' });
export const PolymartIgnoredAnswerSchema = Type.Object(
  { ignored: Type.String({ examples: ['unknown product'] }) },
  { description: 'Acknowledged, nothing done: `unknown product` (audited `marketplace.license.reject`) or `unknown event`' },
);

export const PolymartPlaceholderAnswerSchema = Type.Object({ value: LicenseKey }, { description: 'What Polymart puts in place of the placeholder' });
