import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger } from '../../http/schemas.js';
import { SharingAlertSchema } from '../license-settings/license-settings.schemas.js';

const TopValueSchema = Type.Object({
  value: Type.String({ description: 'The IP address or hardware id' }),
  attempts: Type.Integer({ description: 'Recorded validation attempts that presented it within the window' }),
  lastSeenAtEpochMillis: Type.Integer({ description: 'The latest of them' }),
});

export const TopValuesSchema = Type.Object(
  {
    ips: Type.Array(TopValueSchema, { description: 'The IPs presented most within the window (at most 5)' }),
    hwids: Type.Array(TopValueSchema, { description: 'The HWIDs presented most within the window (at most 5)' }),
  },
  { description: 'From the recorded validation history (VALIDATION_HISTORY_MAX bounds it)' },
);

export const LicenseSharingSchema = Type.Object(
  {
    alert: SharingAlertSchema('The alert in force (the license\'s own, else its product\'s). '),
    alertSource: Type.Unsafe<'license' | 'product' | null>({ type: ['string', 'null'], enum: ['license', 'product', null], description: 'Where the alert comes from; null: off' }),
    suspectedAtEpochMillis: NullableInteger({ description: 'When the license was suspected of sharing; null: not suspected (or cleared)' }),
    distinctIps: NullableInteger({ description: 'Distinct IPs it was presented from within the window (to the minute); null without an alert' }),
    distinctHwids: NullableInteger({ description: 'Distinct HWIDs it was presented from within the window (to the minute); null without an alert' }),
    topValues: TopValuesSchema,
  },
  { $id: 'LicenseSharing' },
);
export type LicenseSharing = Static<typeof LicenseSharingSchema>;
