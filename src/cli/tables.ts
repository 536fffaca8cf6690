// Every table export/import moves, parents before children (foreign keys), each with the
// columns that order its rows. A new table is one line here; export.test.ts fails while
// a table of the database is missing from this list.
export interface TableSpec {
  name: string;
  orderBy: string[];
  /** A column the database generates (PostgreSQL identity): imported as is, then the sequence moves past it. */
  identity?: string;
  /** Byte columns (BLOB/bytea): written as base64 text, read back as bytes. */
  binary?: string[];
  /** Rows per page read and per insert, for tables of large rows (default: the commands' own). */
  rowsPerPage?: number;
}

export const TABLES: TableSpec[] = [
  { name: 'settings', orderBy: ['key'] }, // generated JWT secret and other service settings
  { name: 'staff', orderBy: ['id'] },
  { name: 'roles', orderBy: ['id'] },
  { name: 'staff_roles', orderBy: ['staff_id', 'position'] },
  { name: 'api_tokens', orderBy: ['id'] }, // secrets as hashes only
  { name: 'revoked_tokens', orderBy: ['jti'] }, // signed-out login tokens until their expiry
  { name: 'staff_recovery_codes', orderBy: ['staff_id', 'code_hash'] },
  { name: 'registration_keys', orderBy: ['id'] },
  { name: 'signing_keys', orderBy: ['kid'] }, // receipt and license-file keys, private parts included
  { name: 'audit_entries', orderBy: ['id'] },
  { name: 'customers', orderBy: ['id'] },
  { name: 'products', orderBy: ['id'] },
  { name: 'product_tiers', orderBy: ['product_id', 'position'] },
  { name: 'licenses', orderBy: ['id'] },
  { name: 'license_ips', orderBy: ['license_id', 'position'] },
  { name: 'license_hwids', orderBy: ['license_id', 'position'] },
  { name: 'validation_attempts', orderBy: ['id'], identity: 'id' },
  { name: 'self_releases', orderBy: ['license_id', 'released_at'] }, // counted self-service releases (rolling 30 days)
  { name: 'orders', orderBy: ['id'] },
  { name: 'order_products', orderBy: ['order_id', 'position'] },
  { name: 'order_licenses', orderBy: ['order_id', 'position'] },
  { name: 'webhook_endpoints', orderBy: ['id'] }, // signing secrets included, like signing_keys
  { name: 'webhook_subscriptions', orderBy: ['endpoint_id', 'event_type'] },
  { name: 'webhook_outbox', orderBy: ['id'] }, // pending events survive a move
  { name: 'webhook_deliveries', orderBy: ['id'] },
  { name: 'license_expiry_notices', orderBy: ['license_id', 'expires_at'] },
  { name: 'license_expired_notices', orderBy: ['license_id', 'expires_at'] }, // licenses.expired sent once, also after a move
  { name: 'polymart_nonces', orderBy: ['nonce'] }, // redelivered Polymart webhooks stay answered as before
  { name: 'builtbybit_purchases', orderBy: ['identity'] }, // a redelivered BuiltByBit purchase still acts once
  { name: 'license_grace_ended_notices', orderBy: ['license_id', 'expires_at'] },
  { name: 'license_trial_ending_notices', orderBy: ['license_id', 'expires_at'] },
  { name: 'blocklist_rules', orderBy: ['id'] }, // hits included
  { name: 'license_sightings', orderBy: ['license_id', 'kind', 'value'] }, // the sharing detector's window
  { name: 'release_files', orderBy: ['id'] },
  // 16 KiB each (CHUNK_SIZE): 64 rows, 1 MiB, at a time keep export and import in constant memory
  { name: 'release_file_chunks', orderBy: ['file_id', 'chunk_index'], binary: ['data'], rowsPerPage: 64 },
  { name: 'releases', orderBy: ['id'] },
  { name: 'release_downloads', orderBy: ['id'] },
];

/**
 * Tables the database keeps itself (triggers on validation_attempts fill the hourly
 * counters; the blocklist's and releases' version rows are made by their migrations and only
 * signal changes): not exported, rebuilt as the attempts are imported.
 */
export const DERIVED_TABLES = ['validation_counts_by_hour', 'blocklist_version', 'release_versions_version'];
