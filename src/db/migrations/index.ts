// Every migration, in order. Listed here (not discovered on disk) so the compiled
// build and the tests run exactly the same set. Add new files at the end.
import type { Migration } from 'kysely';
import * as foundation from './2026_11_21_0001_foundation.js';
import * as businessRecords from './2026_11_21_0002_business_records.js';
import * as validationAttemptsWritePath from './2026_11_22_0003_validation_attempts_write_path.js';
import * as validationAttemptsStatsIndex from './2026_11_23_0004_validation_attempts_stats_index.js';
import * as validationAttemptsIntegerKey from './2026_11_24_0005_validation_attempts_integer_key.js';
import * as signingKeys from './2026_11_25_0010_signing_keys.js';
import * as staffAccess from './2026_11_25_0012_staff_access.js';
import * as validationCountsByHour from './2026_11_25_0014a_validation_counts_by_hour.js';
import * as bindingsThatHeal from './2026_11_26_0020_bindings_that_heal.js';
import * as revocation from './2026_11_26_0040_revocation.js';
import * as outboundWebhooks from './2026_11_27_0050_outbound_webhooks.js';
import * as polymart from './2026_11_28_0060_polymart.js';
import * as validationCountsSharded from './2026_11_28_0070_validation_counts_sharded.js';
import * as webhookSecretOverlap from './2026_11_28_0080_webhook_secret_overlap.js';
import * as privilegeBoundaries from './2026_11_29_0100_privilege_boundaries.js';
import * as licensePolicies from './2026_11_29_0200_license_policies.js';
import * as blocklist from './2026_11_29_0300_blocklist.js';
import * as orderRefunds from './2026_11_29_0400_order_refunds.js';
import * as signingKeyLastSigned from './2026_11_29_0500_signing_key_last_signed.js';
import * as usernameSkeletons from './2026_11_30_0100_username_skeletons.js';
import * as attemptsLicenseKeyShare from './2026_12_01_0100_attempts_license_key_share.js';
import * as sales from './2026_12_10_0100_sales.js';
import * as releases from './2026_12_20_0100_releases.js';

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_business_records': businessRecords,
  '2026_11_22_0003_validation_attempts_write_path': validationAttemptsWritePath,
  '2026_11_23_0004_validation_attempts_stats_index': validationAttemptsStatsIndex,
  '2026_11_24_0005_validation_attempts_integer_key': validationAttemptsIntegerKey,
  '2026_11_25_0010_signing_keys': signingKeys,
  '2026_11_25_0012_staff_access': staffAccess,
  '2026_11_25_0014a_validation_counts_by_hour': validationCountsByHour,
  '2026_11_26_0020_bindings_that_heal': bindingsThatHeal,
  '2026_11_26_0040_revocation': revocation,
  '2026_11_27_0050_outbound_webhooks': outboundWebhooks,
  '2026_11_28_0060_polymart': polymart,
  '2026_11_28_0070_validation_counts_sharded': validationCountsSharded,
  '2026_11_28_0080_webhook_secret_overlap': webhookSecretOverlap,
  '2026_11_29_0100_privilege_boundaries': privilegeBoundaries,
  '2026_11_29_0200_license_policies': licensePolicies,
  '2026_11_29_0300_blocklist': blocklist,
  '2026_11_29_0400_order_refunds': orderRefunds,
  '2026_11_29_0500_signing_key_last_signed': signingKeyLastSigned,
  '2026_11_30_0100_username_skeletons': usernameSkeletons,
  '2026_12_01_0100_attempts_license_key_share': attemptsLicenseKeyShare,
  '2026_12_10_0100_sales': sales,
  '2026_12_20_0100_releases': releases,
};
