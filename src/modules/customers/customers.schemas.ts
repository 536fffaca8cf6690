import { Type, type Static } from '@sinclair/typebox';
import { NullableString, PageQueryProperties, SortQueryProperties } from '../../http/schemas.js';

const EMAIL_PATTERN = '^[^@\\s]+@[^@\\s]+$';
const SocialValue = (description: string) => Type.String({ maxLength: 500, description });

/** Known keys are documented; any other key with a string value is kept as given. */
export const SocialsSchema = Type.Object(
  {
    twitter: Type.Optional(SocialValue('Twitter/X handle')),
    linkedin: Type.Optional(SocialValue('LinkedIn slug or identifier')),
    MarketplaceID: Type.Optional(SocialValue('Marketplace user id; at most one customer may hold a given value')),
    SteamID: Type.Optional(SocialValue('Steam64 id (set by the marketplace webhook)')),
    PolymartID: Type.Optional(SocialValue('Polymart user id (set by the Polymart integration); at most one customer may hold a given value')),
    PolymartUsername: Type.Optional(SocialValue("Polymart username (set from a Polymart purchase; the buyer's name there)")),
  },
  {
    additionalProperties: Type.String({ maxLength: 500 }),
    maxProperties: 50,
    propertyNames: { minLength: 1, maxLength: 100 },
    description: 'Social and marketplace handles: an object of string values (up to 50 keys)',
    examples: [{ twitter: 'acme', linkedin: 'acme-inc' }],
  },
);
export type Socials = Static<typeof SocialsSchema>;

export const CustomerSchema = Type.Object({
  id: Type.String({ description: 'Customer id (UUIDv7)' }),
  name: Type.String({ description: 'Person or company name' }),
  email: Type.String({ description: 'Primary contact address' }),
  socials: SocialsSchema,
  note: NullableString({ description: 'Internal staff-only note; null when unset' }),
  createdAtEpochMillis: Type.Number({ description: 'When the customer was created' }),
});
export type Customer = Static<typeof CustomerSchema>;

export const CustomerBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Person or company name', examples: ['Acme Inc'] }),
    email: Type.String({
      minLength: 3,
      maxLength: 320,
      pattern: EMAIL_PATTERN,
      description: 'Primary contact address (`something@something`; not unique)',
      examples: ['billing@acme.example'],
    }),
    socials: Type.Optional(SocialsSchema),
    note: Type.Optional(NullableString({ maxLength: 10_000, description: 'Internal staff-only note', examples: ['VIP'] })),
  },
  {
    description: 'A customer. On PUT the whole record is replaced: omitted `socials` become `{}`, omitted `note` null.',
    examples: [{ name: 'Acme Inc', email: 'billing@acme.example', socials: { twitter: 'acme' }, note: 'VIP' }],
  },
);
export type CustomerBody = Static<typeof CustomerBodySchema>;

/** PATCH: any of the body's fields; those given are set, the others kept. */
export const CustomerPatchSchema = Type.Partial(CustomerBodySchema, {
  description: 'Any fields of a customer; those given are set (socials as a whole, null clears note), the others are kept.',
  minProperties: 1,
  examples: [{ note: 'VIP since 2026' }],
});
export type CustomerPatch = Static<typeof CustomerPatchSchema>;

export const CustomerQuerySchema = Type.Object({
  ...PageQueryProperties,
  ...SortQueryProperties(['createdAt', 'name', 'email']),
  email: Type.Optional(
    Type.String({ maxLength: 320, description: 'Only customers whose email contains this text (ignoring case)', examples: ['acme.example'] }),
  ),
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only customers whose name contains this text (ignoring case)', examples: ['acme'] }),
  ),
});
export type CustomerQuery = Static<typeof CustomerQuerySchema>;
