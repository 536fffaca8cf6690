// The `sharingAlert` setting (DECISIONS.md "Blocklist and shared-key detection"), on products
// (null: off) and licenses (null: the product's, read live): how many distinct IPs and/or
// HWIDs one license may be presented from within a sliding window before it is suspected.
import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../http/errors.js';

export const MAX_WINDOW_HOURS = 168;

const SharingAlertObject = Type.Object(
  {
    distinctIps: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Suspected when presented from more distinct IPs than this in the window' }),
    ),
    distinctHwids: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Suspected when presented from more distinct HWIDs than this in the window' }),
    ),
    windowHours: Type.Integer({ minimum: 1, maximum: MAX_WINDOW_HOURS, description: 'The sliding window, in hours (1-168)' }),
  },
  { additionalProperties: false },
);
export type SharingAlert = Static<typeof SharingAlertObject>;

/** The setting as product and license bodies take and show it. */
export const SharingAlertSetting = (scope: string) =>
  Type.Unsafe<SharingAlert | null>({
    ...SharingAlertObject,
    type: ['object', 'null'],
    description:
      `${scope}Shared-key detection: when one license is presented (valid or not) from strictly more distinct IPs or HWIDs ` +
      'than allowed within the last `windowHours`, it is marked `sharingSuspectedAtEpochMillis` and ' +
      '`licenses.sharing.suspected` is audited and sent once, until staff clear it. Give distinctIps, distinctHwids or both.',
    examples: [{ distinctIps: 5, windowHours: 24 }],
  });

/** Checks what the schema cannot (at least one limit); the stored JSON text or null. */
export function sharingAlertColumn(alert: SharingAlert | null | undefined): string | null {
  if (alert === undefined || alert === null) return null;
  if (alert.distinctIps === undefined && alert.distinctHwids === undefined) {
    throw badRequest('sharingAlert must give distinctIps, distinctHwids or both');
  }
  const stored: SharingAlert = { windowHours: alert.windowHours };
  if (alert.distinctIps !== undefined) stored.distinctIps = alert.distinctIps;
  if (alert.distinctHwids !== undefined) stored.distinctHwids = alert.distinctHwids;
  return JSON.stringify(stored);
}

export const parseSharingAlert = (column: string | null): SharingAlert | null => (column === null ? null : (JSON.parse(column) as SharingAlert));
