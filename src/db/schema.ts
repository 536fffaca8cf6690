// Table types for Kysely. Booleans are stored as 0/1 integers and timestamps as epoch
// milliseconds, so the same queries run on SQLite and PostgreSQL.
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
}

export interface AuditEntriesTable {
  id: string;
  name: string;
  performed_by: string;
  timestamp: number;
  /** JSON snapshot of the affected entity */
  data: string;
}

export interface Database {
  settings: SettingsTable;
  staff: StaffTable;
  roles: RolesTable;
  staff_roles: StaffRolesTable;
  registration_keys: RegistrationKeysTable;
  audit_entries: AuditEntriesTable;
}
