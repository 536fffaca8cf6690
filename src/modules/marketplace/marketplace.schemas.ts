import { Type } from '@sinclair/typebox';

const Text = (options: { description: string; examples?: string[] }) =>
  Type.Optional(Type.Union([Type.String(), Type.Number()], options));

// Every field is optional here: the handler checks the required ones (secret, user_id,
// resource_id) itself, to name all that are missing in one plain-text answer.
export const WebhookBodySchema = Type.Object({
  secret: Text({ description: 'Required. Shared secret (MARKETPLACE_SECRET)' }),
  user_id: Text({ description: 'Required. Marketplace user id of the buyer', examples: ['123456'] }),
  resource_id: Text({ description: "Required. A product's marketplaceResourceId", examples: ['4242'] }),
  marketplace: Text({ description: 'Flag sent by the marketplace, usually "true"' }),
  builtbybit: Text({ description: 'Alias of `marketplace` (BuiltByBit)' }),
  steam_id: Text({ description: "Buyer's Steam64 id, stored as socials.SteamID; empty = absent" }),
  version_id: Text({ description: 'Internal version id of the downloaded resource' }),
  version_number: Text({ description: 'Release version string, recorded in the audit log' }),
});

const Plain = (description: string, examples?: string[]) => Type.String({ description, ...(examples && { examples }) });

/**
 * The webhook's body as the API document shows it: what a marketplace sends (plain
 * strings; secret, user_id and resource_id required). The route validates the lenient
 * WebhookBodySchema instead, to name every missing field in one answer.
 */
export const WebhookFormSchema = Type.Object({
  secret: Plain('Shared secret (MARKETPLACE_SECRET)'),
  user_id: Plain('Marketplace user id of the buyer', ['123456']),
  resource_id: Plain("A product's marketplaceResourceId", ['4242']),
  marketplace: Type.Optional(Plain('Flag sent by the marketplace, usually "true"')),
  builtbybit: Type.Optional(Plain('Alias of `marketplace` (BuiltByBit)')),
  steam_id: Type.Optional(Plain("Buyer's Steam64 id, stored as socials.SteamID; empty = absent")),
  version_id: Type.Optional(Plain('Internal version id of the downloaded resource')),
  version_number: Type.Optional(Plain('Release version string, recorded in the audit log')),
});

export interface WebhookRequest {
  userId: string;
  resourceId: string;
  steamId: string | null;
  versionId: string | null;
  versionNumber: string | null;
}
