// The `discord` format: a Discord webhook message (one embed) that reads like a note from a
// colleague in a channel: what happened in words, the product and customer by name, the
// license key, the device (HWID, IP), when (a Discord timestamp, shown in each reader's
// time zone) and a colour per kind. The event type and record id stay in the footer.
// Discord's limits: 256-character titles, 25 fields, 1024-character field values.

/** Names the delivery worker looked up for the ids in the event (absent: deleted since, or none). */
export interface DiscordNames {
  product?: string;
  customer?: string;
}

const GREEN = 0x2e7d32;
const RED = 0xc62828;
const ORANGE = 0xef6c00;
const BLUE = 0x1565c0;
const PURPLE = 0x6a1b9a;

const TITLES: Record<string, string> = {
  'licenses.create': 'New license',
  'licenses.update': 'License changed',
  'licenses.delete': 'License deleted',
  'licenses.revoke': 'License revoked',
  'licenses.reinstate': 'License reinstated',
  'licenses.issueFile': 'License file issued',
  'licenses.slot.bind': 'New device on a license',
  'licenses.slot.release': 'Device slot freed',
  'licenses.validate.succeeded': 'License check passed',
  'licenses.validate.failed': 'License check refused',
  'licenses.expiring': 'License expires within 7 days',
  'licenses.expired': 'License expired',
  'marketplace.license.create': 'License sold',
  'marketplace.license.reuse': 'Buyer sent their license again',
  'marketplace.license.reject': 'Marketplace request refused',
  'marketplace.license.revoke': 'Purchase refunded: license revoked',
  'customers.create': 'New customer',
  'customers.update': 'Customer changed',
  'customers.delete': 'Customer deleted',
  'products.create': 'New product',
  'products.update': 'Product changed',
  'products.delete': 'Product deleted',
  'orders.create': 'New order',
  'orders.update': 'Order changed',
  'orders.delete': 'Order deleted',
  'webhookEndpoint.disable': 'Webhook endpoint disabled after failing for 5 days',
  ping: 'Test event from the licensing service',
};

/** Colour by the last part of the type: good news green, bad news red, warnings orange. */
const COLORS: Record<string, number> = {
  create: GREEN, reuse: GREEN, succeeded: GREEN, reinstate: GREEN, bind: GREEN,
  revoke: RED, delete: RED, failed: RED, reject: RED, disable: RED,
  expiring: ORANGE, release: ORANGE, expired: RED, published: GREEN, deprecated: ORANGE, archived: ORANGE,
};

const REASONS: Record<string, string> = {
  VALID: 'Valid',
  EXPIRED: 'Expired',
  REVOKED: 'Revoked',
  GRACE: 'Expired, within its grace period',
  PRODUCT_MISMATCH: 'Key used with another product',
  IP_LIMIT_REACHED: 'IP limit reached',
  HWID_LIMIT_REACHED: 'HWID (device) limit reached',
  UNKNOWN_LICENSE: 'Unknown license key',
  BLOCKED: 'Blocked',
  VERSION_NOT_SUPPORTED: 'Version not supported',
};

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `staff.setActive` → "Staff: set active": a readable title for a type without one of its own. */
function titleOf(type: string): string {
  const known = TITLES[type];
  if (known) return known;
  const [resource = type, ...rest] = type.split('.');
  const action = rest.join(' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const noun = resource.replace(/([a-z])([A-Z])/g, '$1 $2');
  return action ? `${noun[0]!.toUpperCase()}${noun.slice(1)}: ${action}` : noun;
}

function colorOf(type: string): number {
  if (type === 'marketplace.license.create') return PURPLE; // a sale
  return COLORS[type.slice(type.lastIndexOf('.') + 1)] ?? BLUE;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** `<t:…:R>`: Discord shows "in 3 days" / "2 minutes ago" in the reader's own time zone. */
const discordTime = (epochMillis: number, style: 'R' | 'f') => `<t:${Math.floor(epochMillis / 1000)}:${style}>`;

/** The license key the event is about, if any. */
function licenseKeyOf(type: string, data: Record<string, unknown>): string | undefined {
  const own = type.startsWith('licenses.') || type === 'marketplace.license.create' || type === 'marketplace.license.reuse';
  return text(data.licenseId) ?? (own ? text(data.id) : undefined);
}

function marketplaceOf(data: Record<string, unknown>): string | undefined {
  if (data.marketplace === 'polymart') return 'Polymart';
  if (data.marketplace !== null && typeof data.marketplace === 'object') return 'BuiltByBit';
  return undefined;
}

type Field = { name: string; value: string; inline: boolean };

function fieldsOf(type: string, data: Record<string, unknown>, names: DiscordNames): Field[] {
  const fields: Field[] = [];
  const add = (name: string, value: string | undefined, inline = true) => {
    if (value !== undefined && value !== '') fields.push({ name, value: clip(value, 1024), inline });
  };
  const customerName = names.customer ?? (type.startsWith('customers.') ? text(data.name) : undefined);
  const productName = names.product ?? (type.startsWith('products.') ? text(data.name) : undefined);
  const key = licenseKeyOf(type, data);
  add('License key', key && `\`${key}\``, false);
  add('Product', productName ?? text(data.productId));
  add('Customer', customerName ?? text(data.customerId));
  if (type.startsWith('customers.')) add('Email', text(data.email));
  add('Marketplace', marketplaceOf(data));
  const kind = text(data.kind);
  add('HWID', text(data.hwid) ?? (kind === 'hwid' ? text(data.value) : undefined));
  add('IP', text(data.ip) ?? (kind === 'ip' ? text(data.value) : undefined));
  const reason = text(data.reason);
  add('Reason', reason && (REASONS[reason] ?? reason));
  if (typeof data.totalAmount === 'number') add('Amount', data.totalAmount.toFixed(2));
  if (typeof data.refundedAtEpochMillis === 'number') add('Refunded', discordTime(data.refundedAtEpochMillis, 'R'));
  if (typeof data.expiresAtEpochMillis === 'number') add('Expires', discordTime(data.expiresAtEpochMillis, 'R'));
  else if (type === 'licenses.create' || type === 'marketplace.license.create') add('Expires', 'Never');
  if (Array.isArray(data.revokedLicenseIds) && data.revokedLicenseIds.length > 0) {
    add('Revoked keys', data.revokedLicenseIds.map((id) => `\`${String(id)}\``).join(', '), false);
  }
  add('Message', text(data.message), false);
  return fields.slice(0, 25);
}

export function discordMessage(type: string, event: { timestamp?: string; data?: unknown }, names: DiscordNames = {}) {
  const data = event.data && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as Record<string, unknown>) : {};
  const at = event.timestamp ? Date.parse(event.timestamp) : NaN;
  return {
    embeds: [
      {
        title: clip(titleOf(type), 256),
        ...(Number.isFinite(at) && { description: `${discordTime(at, 'f')} (${discordTime(at, 'R')})` }),
        color: colorOf(type),
        timestamp: event.timestamp,
        fields: fieldsOf(type, data, names),
        // The type and the record's id in small print: what staff search the portal with.
        footer: { text: clip(typeof data.id === 'string' ? `${type} · ${data.id}` : type, 2048) },
      },
    ],
  };
}
