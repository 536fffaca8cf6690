// What a reader of the audit log sees of an entry's data never exceeds what it may read
// directly (DECISIONS.md "Safe by default"): without `licenses:read`, license keys are cut
// to their first 5 characters; without `customers:read`, a customer record is reduced to
// its id and a buyer's marketplace identity is left out; the token of a Discord webhook
// URL is shown to no one. Entries are stored whole and redacted when read.
//
// Where keys and customers sit in each action's data is declared once, below; the type
// makes every audited action declare it. Free text (notes, reasons) is searched for
// key-shaped text as well, and every string for Discord webhook URLs.
import { cutKey, cutKeyShapedText } from '../../lib/license-key-text.js';
import type { AUDIT_EVENT_TYPES } from '../events/event-types.js';
import { withoutDiscordTokens } from '../../lib/discord-webhook-url.js';

export interface AuditReader {
  /** May read licenses (their keys) directly. */
  licenses: boolean;
  /** May read customer records directly. */
  customers: boolean;
}

/**
 * Paths into an entry's data: `a.b` a field, `a[]` every element of the list `a`, `` the
 * data itself.
 */
interface Sensitive {
  /** License keys (license ids). */
  keys?: readonly string[];
  /** Customer records: only their id (and the entry's `marketplace` tag) is kept. */
  customers?: readonly string[];
  /** A buyer's marketplace user id: it names the customer record, so it goes with it. */
  buyers?: readonly string[];
}

const LICENSE: Sensitive = { keys: ['id'] };
const NAMES_LICENSE: Sensitive = { keys: ['licenseId'] };
const NONE: Sensitive = {};

export const SENSITIVE: Record<(typeof AUDIT_EVENT_TYPES)[number], Sensitive> = {
  'apiToken.create': NONE, 'apiToken.revoke': NONE,
  'blocklist.create': NAMES_LICENSE, 'blocklist.update': NAMES_LICENSE, 'blocklist.delete': NAMES_LICENSE,
  'customers.create': { customers: [''] }, 'customers.update': { customers: [''] }, 'customers.delete': { customers: [''] },
  'licenses.create': LICENSE, 'licenses.update': LICENSE, 'licenses.delete': LICENSE,
  'licenses.issueFile': NAMES_LICENSE, 'licenses.revoke': NAMES_LICENSE, 'licenses.reinstate': NAMES_LICENSE,
  'licenses.slot.release': NAMES_LICENSE, 'licenses.expiry.start': { keys: ['id', 'licenseId'] },
  'licenses.sharing.suspected': NAMES_LICENSE, 'licenses.sharing.clear': NAMES_LICENSE,
  'licenses.renewed': { keys: ['id', 'licenseId'] }, 'licenses.trial.converted': { keys: ['id', 'licenseId'] },
  'licenses.tier.changed': NAMES_LICENSE,
  'marketplace.license.create': { keys: ['id'], buyers: ['marketplace.user_id', 'polymart.user_id', 'builtbybit.user_id'] },
  'marketplace.license.reuse': { keys: ['id'], buyers: ['marketplace.user_id', 'polymart.user_id', 'builtbybit.user_id'] },
  'marketplace.license.reject': { keys: ['licenseId'], buyers: ['user_id'] },
  'marketplace.license.revoke': { keys: ['revokedLicenseIds[]'], buyers: ['user_id'] },
  'orders.create': { keys: ['licenseIds[]', 'licenseId'] }, 'orders.update': { keys: ['licenseIds[]', 'licenseId'] },
  'orders.delete': { keys: ['licenseIds[]', 'licenseId'] },
  'products.create': NONE, 'products.update': NONE, 'products.delete': NONE,
  'registrationKey.generate': NONE, 'registrationKey.revoke': NONE,
  // a release names no license or customer (its notes are free text, searched for keys)
  'releases.create': NONE, 'releases.update': NONE, 'releases.delete': NONE, 'releases.file': NONE,
  'releases.publish': NONE, 'releases.deprecate': NONE, 'releases.archive': NONE,
  'roles.create': NONE, 'roles.update': NONE, 'roles.delete': NONE,
  'signingKey.create': NONE, 'signingKey.activate': NONE, 'signingKey.rotate': NONE, 'signingKey.delete': NONE,
  'staff.create': NONE, 'staff.delete': NONE, 'staff.setActive': NONE, 'staff.setRoles': NONE,
  'staff.changePassword': NONE, 'staff.setPassword': NONE, 'staff.totp.enable': NONE, 'staff.totp.disable': NONE,
  'webhookEndpoint.create': NONE, 'webhookEndpoint.update': NONE, 'webhookEndpoint.delete': NONE,
  'webhookEndpoint.rotateSecret': NONE, 'webhookEndpoint.disable': NONE,
};

/** Fields of a customer entry that are not the customer's and stay: who wrote it. */
const KEPT_OF_CUSTOMER = ['id', 'marketplace'];

type Json = unknown;

/** `data` with `change` applied at `path` (a missing or mistyped field is left alone). */
function atPath(data: Json, path: string, change: (value: Json) => Json | undefined): Json {
  if (path === '') return change(data);
  const [head, ...rest] = path.split('.');
  const field = head!.endsWith('[]') ? head!.slice(0, -2) : head!;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !(field in data)) return data;
  const record = { ...(data as Record<string, Json>) };
  const inner = (value: Json) => (rest.length === 0 ? change(value) : atPath(value, rest.join('.'), change));
  const next = head!.endsWith('[]') ? (Array.isArray(record[field]) ? (record[field] as Json[]).map(inner) : record[field]) : inner(record[field]);
  if (next === undefined) delete record[field];
  else record[field] = next;
  return record;
}

/** Every string in `data` (not the field names) passed through `change`. */
function eachString(data: Json, change: (text: string) => string): Json {
  if (typeof data === 'string') return change(data);
  if (Array.isArray(data)) return data.map((value) => eachString(value, change));
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, eachString(value, change)]));
}

const cutKeyValue = (value: Json) => (typeof value === 'string' ? cutKey(value) : value);
const customerId = (value: Json) =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([key]) => KEPT_OF_CUSTOMER.includes(key)))
    : value;

/** An entry's `data` (a JSON string) as `reader` may see it. */
export function redactAuditData(name: string, data: string, reader: AuditReader): string {
  if (reader.licenses && reader.customers) return withoutDiscordTokens(data);
  let parsed: Json;
  try {
    parsed = JSON.parse(data);
  } catch {
    return withoutDiscordTokens(reader.licenses ? data : cutKeyShapedText(data));
  }
  const sensitive: Sensitive = SENSITIVE[name as keyof typeof SENSITIVE] ?? NONE;
  if (!reader.customers) {
    for (const path of sensitive.customers ?? []) parsed = atPath(parsed, path, customerId);
    for (const path of sensitive.buyers ?? []) parsed = atPath(parsed, path, () => undefined);
  }
  if (!reader.licenses) {
    for (const path of sensitive.keys ?? []) parsed = atPath(parsed, path, cutKeyValue);
  }
  return JSON.stringify(eachString(parsed, (text) => withoutDiscordTokens(reader.licenses ? text : cutKeyShapedText(text))));
}
