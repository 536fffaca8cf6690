import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, PageQueryProperties, SortQueryProperties } from '../../http/schemas.js';

/** Longest value a rule may hold: the longest HWID a validation accepts. */
export const MAX_RULE_VALUE_LENGTH = 1024;

const RuleTypeSchema = Type.Unsafe<'ip' | 'cidr' | 'hwid'>({
  type: 'string',
  enum: ['ip', 'cidr', 'hwid'],
  description: '`ip`: one address (IPv4 or IPv6); `cidr`: a network (`10.0.0.0/8`, `2001:db8::/32`); `hwid`: a hardware id',
});

const RuleModeSchema = Type.Unsafe<'block' | 'flag'>({
  type: 'string',
  enum: ['block', 'flag'],
  description: '`block` refuses (reason BLOCKED); `flag` (a trial) only counts hits and changes no answer',
});

const RuleExpiry = NullableInteger({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Epoch millis from which the rule matches nothing; null: it never expires. On create and PATCH, it must lie in the future.',
  examples: [1893456000000],
});

const RuleNote = NullableString({ maxLength: 1000, description: 'Why the rule exists (e.g. the forum post where the key leaked)' });

export const BlocklistRuleSchema = Type.Object(
  {
    id: Type.String({ description: 'Rule id (UUIDv7)' }),
    type: RuleTypeSchema,
    value: Type.String({ description: 'Normalised: IPv4 dotted, IPv4-mapped IPv6 as IPv4, IPv6 as RFC 5952, a CIDR as its network' }),
    scope: Type.Unsafe<'everything' | 'product' | 'license'>({
      type: 'string',
      enum: ['everything', 'product', 'license'],
      description: 'What the rule applies to: every validation, those naming `productId`, or those of `licenseId`',
    }),
    productId: NullableString({ description: 'The product it is scoped to; null otherwise' }),
    licenseId: NullableString({ description: 'The license it is scoped to; null otherwise' }),
    mode: RuleModeSchema,
    expiresAtEpochMillis: RuleExpiry,
    note: RuleNote,
    hits: Type.Integer({ minimum: 0, description: 'Requests it matched (block and flag alike); may lag up to 5 s' }),
    lastHitAtEpochMillis: NullableInteger({ description: 'When it last matched; null: never. May lag up to 5 s' }),
    createdAtEpochMillis: Type.Integer(),
    createdBy: Type.String({ description: 'Username of the staff member who created it' }),
    updatedAtEpochMillis: Type.Integer(),
  },
  { $id: 'BlocklistRule' },
);
export type BlocklistRule = Static<typeof BlocklistRuleSchema>;

export const CreateRuleBodySchema = Type.Object({
  type: RuleTypeSchema,
  value: Type.String({
    minLength: 1,
    maxLength: MAX_RULE_VALUE_LENGTH,
    description: 'The address, network or hardware id (a malformed address or CIDR is 400 naming `value`)',
    examples: ['203.0.113.7'],
  }),
  productId: Type.Optional(NullableString({ description: 'Scope the rule to this product (an unknown id is 400)' })),
  licenseId: Type.Optional(NullableString({ description: 'Scope the rule to this license (an unknown id is 400); not with productId' })),
  mode: Type.Optional(RuleModeSchema),
  expiresAtEpochMillis: Type.Optional(RuleExpiry),
  note: Type.Optional(RuleNote),
});
export type CreateRuleBody = Static<typeof CreateRuleBodySchema>;

/** Fields PATCH may change; any other is 400 naming it (checked by the service). */
export const PATCHABLE_FIELDS = ['mode', 'expiresAtEpochMillis', 'note'] as const;

export const PatchRuleBodySchema = Type.Object(
  {
    mode: Type.Optional(RuleModeSchema),
    expiresAtEpochMillis: Type.Optional(RuleExpiry),
    note: Type.Optional(RuleNote),
  },
  { description: 'Only mode, expiresAtEpochMillis and note (at least one); any other field is 400 naming it', minProperties: 1 },
);
export type PatchRuleBody = Static<typeof PatchRuleBodySchema>;

export const RuleQuerySchema = Type.Object({
  type: Type.Optional(RuleTypeSchema),
  mode: Type.Optional(RuleModeSchema),
  scope: Type.Optional(
    Type.Unsafe<'everything' | 'product' | 'license'>({ type: 'string', enum: ['everything', 'product', 'license'], description: 'Only rules of this scope' }),
  ),
  productId: Type.Optional(Type.String({ description: 'Only rules scoped to this product' })),
  licenseId: Type.Optional(Type.String({ description: 'Only rules scoped to this license' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Only rules whose value or note contains this text (ignoring case)' })),
  status: Type.Optional(
    Type.Unsafe<'active' | 'expired'>({ type: 'string', enum: ['active', 'expired'], description: 'active: in force now; expired: past its expiry' }),
  ),
  ...PageQueryProperties,
  ...SortQueryProperties(['createdAt', 'hits', 'lastHitAt', 'value', 'expiresAt']),
});
export type RuleQuery = Static<typeof RuleQuerySchema>;
