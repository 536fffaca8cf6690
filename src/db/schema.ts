// Table types for Kysely. Booleans are stored as 0/1 integers and timestamps as epoch
// milliseconds, so the same queries run on SQLite and PostgreSQL.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface SettingsTable {
  key: string;
  value: string;
}

export interface StaffTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  active: number;
  is_master_admin: number;
  created_at: number;
  /** When the password was last changed: login tokens issued before it stop working. */
  password_changed_at?: number | null;
  /** Base32 TOTP secret: pending while totp_enabled is 0, active once it is 1. */
  totp_secret?: string | null;
  totp_enabled?: number;
  /** Last accepted TOTP time step: a code is accepted once (no replay). */
  totp_last_step?: number | null;
  /** NFKC + case-folded username (unique); NULL only for accounts that clashed before it existed. */
  username_key?: string | null;
  /** UTS #39 skeleton of the username as registered (unique); NULL only for accounts that looked alike before it existed. */
  username_skeleton?: string | null;
}

export interface ApiTokensTable {
  id: string;
  staff_id: string;
  name: string;
  /** SHA-256 (hex) of the token secret */
  token_hash: string;
  /** JSON array of permission strings */
  permissions: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

export interface RevokedTokensTable {
  jti: string;
  /** The login token's own expiry: the row may be pruned after it. */
  expires_at: number;
}

export interface StaffRecoveryCodesTable {
  staff_id: string;
  /** SHA-256 (hex) of the recovery code */
  code_hash: string;
  used_at: number | null;
}

export interface RolesTable {
  id: string;
  name: string;
  /** JSON array of permission strings */
  permissions: string;
  created_at: number;
}

export interface StaffRolesTable {
  staff_id: string;
  role_id: string;
  /** keeps roleIds in the order they were given */
  position: number;
}

export interface RegistrationKeysTable {
  id: string;
  /** SHA-256 of the key: the key itself is shown once, at creation */
  key_hash: string;
  note: string | null;
  created_at: number;
  created_by: string;
  used_at: number | null;
  used_by: string | null;
  /** JSON array of the role ids a registration with this key may take; NULL: any (SPEC.md). */
  role_ids?: string | null;
}

export interface AuditEntriesTable {
  id: string;
  name: string;
  performed_by: string;
  timestamp: number;
  /** JSON snapshot of the affected entity */
  data: string;
}

export interface CustomersTable {
  id: string;
  name: string;
  email: string;
  /** JSON object of string values */
  socials: string;
  note: string | null;
  /** copy of socials.MarketplaceID (unique) */
  marketplace_user_id: string | null;
  /** copy of socials.PolymartID (unique) */
  polymart_user_id: string | null;
  created_at: number;
}

export interface ProductsTable {
  id: string;
  name: string;
  product_type: string;
  description: string | null;
  price: number;
  requires_license: number;
  is_subscription: number;
  recurring_period_days: number | null;
  max_ips: number | null;
  max_hwids: number | null;
  marketplace_resource_id: string | null;
  /** the Polymart product a Polymart purchase names (unique) */
  polymart_product_id: string | null;
  /** default for new licenses; null: bindings are permanent */
  slot_timeout_minutes: number | null;
  /** default for new licenses; null: self-service release is off */
  self_release_limit: number | null;
  /** JSON SharingAlert; null: off */
  sharing_alert: string | null;
  /** License policies (DECISIONS.md), the defaults of new licenses: fixed | creation | firstValidation */
  expiry_basis: Generated<string>;
  valid_for_days: number | null;
  grace_days: number | null;
  /** the tier's feature flags as JSON text (null: none); applies live to the product's licenses */
  features: string | null;
  /** 1: the validate body carries the reason (licenses whose own setting is null) */
  reveal_reasons: Generated<number>;
  /** days of updates from the sale (null: the license's expiry rule) */
  updates_for_days: number | null;
  /** 1: validation refuses archived and unknown versions */
  refuse_unsupported_versions: number | null;
  created_at: number;
}

export interface LicensesTable {
  /** the license key */
  id: string;
  product_id: string;
  customer_id: string;
  expires_at: number | null;
  max_ips: number | null;
  max_hwids: number | null;
  slot_timeout_minutes: number | null;
  self_release_limit: number | null;
  /** set while revoked (expires_at is then the revocation time) */
  revoked_at: number | null;
  revoked_reason: string | null;
  /** the expiry the revocation replaced, put back by a reinstatement (null: perpetual) */
  revoked_previous_expires_at: number | null;
  /** JSON SharingAlert; null: the product's */
  sharing_alert: string | null;
  /** set when the sharing detector fired, until staff clear it */
  sharing_suspected_at: number | null;
  /** fixed | creation | firstValidation */
  expiry_basis: Generated<string>;
  valid_for_days: number | null;
  grace_days: number | null;
  /** the license's own feature overrides as JSON text (null: none; a null value removes the product's key) */
  features: string | null;
  /** null: the product's setting */
  reveal_reasons: number | null;
  /** when the expiry clock started (firstValidation: the first passing validation, or staff setting an expiry) */
  expiry_started_at: number | null;
  /** when expires_at was last written: an expiry already past then is never announced as `licenses.expired` */
  expiry_set_at: number | null;
  /** a code of the product's tiers; null: the base */
  tier: string | null;
  /** 1: a trial (a sale converts it) */
  trial: Generated<number>;
  /** releases published up to this moment are the license's (null: its expiry rule) */
  updates_until: number | null;
  version: number;
  created_at: number;
}

/** A tier of a product (docs/selling.md): its features apply live to the licenses at it. */
export interface ProductTiersTable {
  product_id: string;
  code: string;
  position: number;
  name: string;
  /** JSON text; null: none (a null value removes the product's key) */
  features: string | null;
  /** unique across products and tiers, like the product's own */
  marketplace_resource_id: string | null;
  polymart_product_id: string | null;
}
export type ProductTierRow = Selectable<ProductTiersTable>;

/** A BuiltByBit purchase by its identity (resource, addon, user, purchase date), and its JSON answer. */
export interface BuiltbybitPurchasesTable {
  identity: string;
  answer: string | null;
  received_at: number;
}

/** One counted self-service release (POST /licenses/release that freed something). */
export interface SelfReleasesTable {
  license_id: string;
  released_at: number;
}

export interface LicenseIpsTable {
  license_id: string;
  ip: string;
  position: number;
  /** when it was bound (epoch millis) */
  first_seen_at: number;
  /** the last successful validation that presented it, recorded to the second (LAST_SEEN_RESOLUTION_MS) */
  last_seen_at: number;
}

export interface LicenseHwidsTable {
  license_id: string;
  hwid: string;
  position: number;
  /** when it was bound (epoch millis) */
  first_seen_at: number;
  /** the last successful validation that presented it, recorded to the second (LAST_SEEN_RESOLUTION_MS) */
  last_seen_at: number;
}

export interface ValidationAttemptsTable {
  /** Assigned by the database in insertion order: breaks timestamp ties. */
  id: Generated<number>;
  license_id: string;
  hwid: string;
  ip: string;
  timestamp: number;
  successful: number;
  /** VALID, PRODUCT_MISMATCH, EXPIRED, IP_LIMIT_REACHED, HWID_LIMIT_REACHED */
  reason: string;
  /** the version the client software named (null: none) */
  client_version?: string | null;
}

export type NewValidationAttempt = Insertable<ValidationAttemptsTable>;
/** Rows as read (and as written in full). */
export type ProductRow = Selectable<ProductsTable>;
export type LicenseRecord = Selectable<LicensesTable>;

/** Attempts held in validation_attempts per UTC hour, kept current by triggers (migration 0014a). */
export interface ValidationCountsByHourTable {
  /** timestamp / 3600000, truncated */
  hour: number;
  /** PostgreSQL: the writing backend's shard (migration 0070); an hour's count is the sum of its shards. SQLite: 0. */
  shard: Generated<number>;
  attempts: number;
  successful: number;
}

export interface OrdersTable {
  id: string;
  customer_id: string;
  total_amount: number;
  created_at: number;
  /** new | renewal | conversion | upgrade | reuse (default new) */
  kind: ColumnType<string, string | undefined, string>;
  /** the license the purchase is about (null: none, or more than one) */
  license_id: string | null;
  /** when the purchase was refunded (marketplace refund, chargeback, or staff); null while it stands */
  refunded_at: number | null;
}

/** An order's row as read and written in full. */
export type OrderRow = Selectable<OrdersTable>;

export interface OrderProductsTable {
  order_id: string;
  product_id: string;
  position: number;
}

export interface OrderLicensesTable {
  order_id: string;
  license_id: string;
  position: number;
}

/** An Ed25519 signing key; `slot` is 'current' on the key in use, null once retired. */
export interface SigningKeysTable {
  kid: string;
  slot: string | null;
  /** PKCS#8 PEM; never leaves the service */
  private_key: string;
  /** the public key, base64url (JWK `x`) */
  public_x: string;
  created_at: number;
  retired_at: number | null;
  /** when it last signed, as the key ring last persisted it (at most once a minute); null: never */
  last_signed_at: number | null;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string | null;
  /** standard | discord */
  format: string;
  enabled: number;
  /** whsec_…: needed in clear to sign; never answered except at creation and rotation */
  secret: string;
  /** The secret a rotation replaced: it signs beside `secret` until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
  /** the first failed attempt of the current run of failures; null: the last attempt succeeded */
  failing_since: number | null;
  /** why it was disabled by the service (not by staff); null otherwise */
  disabled_reason: string | null;
}

/** One event type (or `*`) an endpoint receives. */
export interface WebhookSubscriptionsTable {
  endpoint_id: string;
  event_type: string;
}

/** One event for one endpoint, until it is delivered or given up. */
export interface WebhookOutboxTable {
  id: string;
  endpoint_id: string;
  /** `webhook-id`: the same on every attempt (the audit entry's id for audited changes) */
  event_id: string;
  type: string;
  /** the standard-format JSON body, fixed when the event happened */
  body: string;
  created_at: number;
  /** pending | delivered | failed */
  status: string;
  attempts: number;
  next_attempt_at: number;
  /** the worker that is sending it now, until lease_until */
  lease_owner: string | null;
  lease_until: number | null;
}

/** One delivery attempt. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  attempt: number;
  /** the event's state after this attempt: delivered, pending (will retry) or failed (gave up) */
  status: string;
  response_status: number | null;
  /** the first 2 KiB of the answer, or why there was none */
  response_body: string | null;
  duration_ms: number;
  at: number;
}

/** A license whose `licenses.expiring` event was queued for this expiry. */
export interface LicenseExpiryNoticesTable {
  license_id: string;
  expires_at: number;
}

/** A license whose `licenses.expired` event was queued for this expiry. */
export interface LicenseExpiredNoticesTable {
  license_id: string;
  expires_at: number;
}

/** A Polymart webhook delivery, by its nonce, and what it was answered (null while it is processed). */
export interface PolymartNoncesTable {
  nonce: string;
  status: number | null;
  /** the JSON answer body */
  answer: string | null;
  received_at: number;
}

/** A blocklist rule (modules/blocklist). */
export interface BlocklistRulesTable {
  id: string;
  type: string;
  value: string;
  /** '' (everything), 'product:<id>' or 'license:<id>' */
  scope: string;
  product_id: string | null;
  license_id: string | null;
  mode: string;
  expires_at: number | null;
  note: string | null;
  hits: number;
  last_hit_at: number | null;
  last_event_at: number | null;
  created_at: number;
  created_by: string;
  updated_at: number;
}

/** One row (id 1): bumped by every rule change, polled by every instance. */
export interface BlocklistVersionTable {
  id: number;
  version: number;
}

/** A distinct IP or HWID a license was presented from, and when last (to the minute). */
export interface LicenseSightingsTable {
  license_id: string;
  kind: string;
  value: string;
  last_seen_at: number;
}

/** A release file's facts; its bytes are in release_file_chunks. */
export interface ReleaseFilesTable {
  id: string;
  name: string;
  size: number;
  sha256: string;
  chunk_size: number;
  main_class: string | null;
  /** JSON JarIndex (src/lib/jars) for a jar, else null */
  jar_index: string | null;
  /** null while its chunks are written */
  completed_at: number | null;
  created_at: number;
}

export interface ReleaseFileChunksTable {
  file_id: string;
  chunk_index: number;
  data: Buffer;
}

export interface ReleasesTable {
  id: string;
  product_id: string;
  version: string;
  channel: string;
  status: string;
  notes: string | null;
  file_id: string | null;
  created_at: number;
  published_at: number | null;
  updated_at: number;
}

export interface ReleaseDownloadsTable {
  id: string;
  release_id: string;
  license_id: string;
  customer_id: string | null;
  ip: string;
  hwid: string | null;
  at: number;
  sha256: string;
  nonce: string | null;
}

/** One row (id 1): bumped by every release change, polled by every instance's version cache. */
export interface ReleaseVersionsVersionTable {
  id: number;
  version: number;
}

export interface Database {
  settings: SettingsTable;
  staff: StaffTable;
  roles: RolesTable;
  staff_roles: StaffRolesTable;
  registration_keys: RegistrationKeysTable;
  audit_entries: AuditEntriesTable;
  api_tokens: ApiTokensTable;
  revoked_tokens: RevokedTokensTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  customers: CustomersTable;
  products: ProductsTable;
  licenses: LicensesTable;
  license_ips: LicenseIpsTable;
  license_hwids: LicenseHwidsTable;
  validation_attempts: ValidationAttemptsTable;
  validation_counts_by_hour: ValidationCountsByHourTable;
  orders: OrdersTable;
  order_products: OrderProductsTable;
  order_licenses: OrderLicensesTable;
  signing_keys: SigningKeysTable;
  self_releases: SelfReleasesTable;
  license_expired_notices: LicenseExpiredNoticesTable;
  license_grace_ended_notices: LicenseExpiredNoticesTable;
  license_trial_ending_notices: LicenseExpiredNoticesTable;
  product_tiers: ProductTiersTable;
  builtbybit_purchases: BuiltbybitPurchasesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  license_expiry_notices: LicenseExpiryNoticesTable;
  polymart_nonces: PolymartNoncesTable;
  blocklist_rules: BlocklistRulesTable;
  blocklist_version: BlocklistVersionTable;
  license_sightings: LicenseSightingsTable;
  release_files: ReleaseFilesTable;
  release_file_chunks: ReleaseFileChunksTable;
  releases: ReleasesTable;
  release_downloads: ReleaseDownloadsTable;
  release_versions_version: ReleaseVersionsVersionTable;
}
