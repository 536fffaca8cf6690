// The API's resources as SPEC.md and DECISIONS.md define them. Shared by every feature
// so that features never import each other's types.

export interface SessionUser {
  username: string;
  isMasterAdmin: boolean;
  /** Union of the account's role permissions; ["*"] for the Master Admin. */
  permissions: string[];
  /** Role names joined by ", ". */
  role: string;
}

export interface LoginResponse {
  token: string;
  user: SessionUser;
}

export interface Staff {
  id: string;
  username: string;
  email: string;
  roleIds: string[];
  active: boolean;
  isMasterAdmin: boolean;
}

export interface Role {
  id: string;
  name: string;
  permissions: string[];
}

export interface SigningKey {
  kid: string;
  createdAtEpochMillis: number;
  retiredAtEpochMillis: number | null;
  current: boolean;
}

export interface JwkSet {
  keys: { kty: string; crv: string; x: string; kid: string; alg: string; use: string }[];
}

export interface LicenseFile {
  licenseFile: string;
  validUntilEpochMillis: number;
}

export interface RegistrationKey {
  id: string;
  /** Present only in the response that generated it. */
  key?: string;
  note: string | null;
  createdAtEpochMillis: number;
  createdBy: string;
  usedAtEpochMillis: number | null;
  usedBy: string | null;
}

export interface AuditEntry {
  id: string;
  name: string;
  performedBy: string;
  timestampEpochMillis: number;
  /** JSON snapshot of the affected entity, as a string. */
  data: string;
}

export type Socials = Record<string, string>;

export interface Customer {
  id: string;
  name: string;
  email: string;
  socials: Socials;
  note: string | null;
  createdAtEpochMillis: number;
}

export interface CustomerInput {
  name: string;
  email: string;
  socials?: Socials;
  note?: string;
}

export interface Product {
  id: string;
  name: string;
  productType: string;
  description: string | null;
  price: number;
  requiresLicense: boolean;
  isSubscription: boolean;
  recurringPeriodDays: number | null;
  maxIps: number | null;
  maxHwids: number | null;
  marketplaceResourceId: string | null;
  createdAtEpochMillis: number;
}

export type ProductInput = Omit<Product, 'id' | 'createdAtEpochMillis'>;

export type ValidationReason = 'VALID' | 'PRODUCT_MISMATCH' | 'EXPIRED' | 'IP_LIMIT_REACHED' | 'HWID_LIMIT_REACHED' | 'UNKNOWN';

export interface ValidationAttempt {
  hwid: string;
  ip: string;
  timestampEpochMillis: number;
  successful: boolean;
  reason?: ValidationReason | string;
}

export interface License {
  /** The license key. */
  id: string;
  productId: string;
  customerId: string;
  expiresAtEpochMillis: number | null;
  maxIps: number | null;
  maxHwids: number | null;
  usedIps: string[];
  usedHwids: string[];
  version: number;
  /** Oldest first, as the API returns them. */
  validationAttempts: ValidationAttempt[];
  createdAtEpochMillis: number;
}

export interface LicenseCreateInput {
  productId: string;
  customerId: string;
  expiresAtEpochMillis: number | null;
  /** Omitted: the product's default applies. */
  maxIps?: number | null;
  maxHwids?: number | null;
}

export type LicenseUpdateInput = Omit<License, 'id' | 'createdAtEpochMillis'>;

export interface Order {
  id: string;
  customerId: string;
  productIds: string[];
  totalAmount: number;
  licenseIds: string[];
  createdAtEpochMillis: number;
}

export type OrderInput = Omit<Order, 'id' | 'createdAtEpochMillis'>;

/** Validation attempts of one UTC hour (GET /licenses/stats). */
export interface HourCount {
  /** Start of the hour, epoch millis. */
  hourEpochMillis: number;
  successful: number;
  failed: number;
}

/** GET /licenses/stats: licenses by status at the server time, attempts per hour since `since`. */
export interface LicenseStats {
  active: number;
  expired: number;
  /** Oldest first; hours without attempts are left out. */
  validationsByHour: HourCount[];
}

/** Query parameters every list endpoint accepts. */
export interface PageParams {
  limit?: number;
  offset?: number;
  /** A field the list allows (each list documents its own); default createdAt. */
  sort?: string;
  order?: 'asc' | 'desc';
}

/** GET /products/names: what staff who read licenses may know of a product. */
export interface ProductName {
  id: string;
  name: string;
}

export interface Account extends SessionUser {
  id: string;
  email: string;
  totpEnabled: boolean;
}

export interface ApiToken {
  id: string;
  name: string;
  permissions: string[];
  createdAtEpochMillis: number;
  expiresAtEpochMillis: number | null;
  lastUsedAtEpochMillis: number | null;
}

export interface CreatedApiToken extends ApiToken {
  /** The secret, shown only in the create answer. */
  token: string;
}
