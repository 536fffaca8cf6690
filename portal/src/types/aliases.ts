// Names the portal uses for the API's types where they differ from the schema names,
// all derived from the generated ./api.ts (re-exported from it, so `from '../types/api'`
// keeps working). A schema change reaches these through api.ts.
import type { components, operations } from './api';

type Schemas = components['schemas'];

export type CustomerInput = Schemas['CustomerBody'];
export type ProductInput = Schemas['ProductBody'];
export type OrderInput = Schemas['OrderBody'];
export type LicenseCreateInput = Schemas['CreateLicenseBody'];
export type LicenseUpdateInput = Schemas['UpdateLicenseBody'];
export type ValidationReason = NonNullable<Schemas['ValidationAttempt']['reason']>;

/** Query parameters every list endpoint accepts; `sort` takes the fields each list documents. */
export type PageParams = Pick<NonNullable<operations['getCustomers']['parameters']['query']>, 'limit' | 'offset' | 'order'> & {
  sort?: string;
};

// Webhook endpoints: taken from the operations, which name them whatever the schemas' ids.
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
export type WebhookEndpoint = Json<operations['getWebhookEndpointsById']['responses'][200]>;
export type WebhookEndpointWithSecret = Json<operations['postWebhookEndpoints']['responses'][201]>;
export type WebhookEndpointInput = Schemas['WebhookEndpointBody'];
export type WebhookFormat = WebhookEndpoint['format'];
export type WebhookDelivery = Json<operations['getWebhookEndpointsByIdDeliveries']['responses'][200]>[number];
export type DeliveryStatus = WebhookDelivery['status'];

// Leak defence: blocklist rules and a license's sharing state.
export type BlocklistRule = Json<operations['getBlocklistById']['responses'][200]>;
export type BlocklistRuleInput = Schemas['CreateRuleBody'];
export type BlocklistRuleChange = Schemas['PatchRuleBody'];
export type LicenseSharing = Json<operations['getLicensesByIdSharing']['responses'][200]>;
export type SharingAlert = NonNullable<Schemas['ProductBody']['sharingAlert']>;

// Releases: the staff list's filters.
export type ReleaseChannel = Schemas['Release']['channel'];
export type ReleaseStatus = Schemas['Release']['status'];
