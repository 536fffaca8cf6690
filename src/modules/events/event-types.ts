// The one vocabulary of events (DECISIONS.md "Outbound webhooks"): the audit log's action
// names, plus the facts of validation that are not audited, plus `ping` (test sends).
// event-types.test.ts fails when code records an audit action missing from this list.

export const AUDIT_EVENT_TYPES = [
  'apiToken.create', 'apiToken.revoke',
  'blocklist.create', 'blocklist.update', 'blocklist.delete',
  'customers.create', 'customers.update', 'customers.delete',
  'licenses.create', 'licenses.update', 'licenses.delete', 'licenses.issueFile',
  'licenses.revoke', 'licenses.reinstate', 'licenses.slot.release', 'licenses.expiry.start',
  'licenses.sharing.suspected', 'licenses.sharing.clear',
  'licenses.renewed', 'licenses.trial.converted', 'licenses.tier.changed',
  'marketplace.license.create', 'marketplace.license.reuse', 'marketplace.license.reject', 'marketplace.license.revoke',
  'orders.create', 'orders.update', 'orders.delete',
  'products.create', 'products.update', 'products.delete',
  'registrationKey.generate', 'registrationKey.revoke',
  'releases.create', 'releases.update', 'releases.delete', 'releases.file', 'releases.publish', 'releases.deprecate', 'releases.archive',
  'roles.create', 'roles.update', 'roles.delete',
  'signingKey.create', 'signingKey.activate', 'signingKey.rotate', 'signingKey.delete',
  'staff.create', 'staff.delete', 'staff.setActive', 'staff.setRoles', 'staff.changePassword', 'staff.setPassword',
  'staff.totp.enable', 'staff.totp.disable',
  'webhookEndpoint.create', 'webhookEndpoint.update', 'webhookEndpoint.delete', 'webhookEndpoint.rotateSecret',
  'webhookEndpoint.disable',
] as const;

/** Events that are facts of validation, not audited changes. */
export const VALIDATION_EVENT_TYPES = ['licenses.slot.bind', 'licenses.validate.succeeded', 'licenses.validate.failed'] as const;

export const EXPIRING_EVENT_TYPE = 'licenses.expiring';

/** Once per license and expiry, when the clock passes it (licenses/expiry-notices.ts). */
export const EXPIRED_EVENT_TYPE = 'licenses.expired';

/** Once per license and expiry, when its grace ends (licenses/expiry-notices.ts). */
export const GRACE_ENDED_EVENT_TYPE = 'licenses.grace.ended';

/** Once per trial and expiry, a day before it ends (licenses/expiry-notices.ts); a trial has no `licenses.expiring`. */
export const TRIAL_ENDING_EVENT_TYPE = 'licenses.trial.ending';

/** A blocklist rule matched requests (at most one a minute per rule; not audited). */
export const BLOCKLIST_HIT_EVENT_TYPE = 'blocklist.hit';

/**
 * A release reached a status buyers' plugins see (queued with its audit entry `releases.publish`
 * etc., in the same transaction): what a vendor subscribes to for announcements.
 */
export const RELEASE_EVENT_TYPES = ['releases.published', 'releases.deprecated', 'releases.archived'] as const;

/** Every type an endpoint may subscribe to. */
export const EVENT_TYPES: readonly string[] = [
  ...AUDIT_EVENT_TYPES, ...VALIDATION_EVENT_TYPES, EXPIRING_EVENT_TYPE, EXPIRED_EVENT_TYPE, GRACE_ENDED_EVENT_TYPE, TRIAL_ENDING_EVENT_TYPE,
  BLOCKLIST_HIT_EVENT_TYPE, ...RELEASE_EVENT_TYPES,
];

/** Subscribes to every type, including those added later. */
export const ALL_EVENTS = '*';

/** Sent by POST /webhook-endpoints/{id}/test to that endpoint only; not subscribable. */
export const PING_EVENT_TYPE = 'ping';

const KNOWN = new Set<string>(EVENT_TYPES);
export const isEventType = (type: string): boolean => KNOWN.has(type);
