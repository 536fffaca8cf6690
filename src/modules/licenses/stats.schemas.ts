import { Type, type Static } from '@sinclair/typebox';

/** How far back `since` may reach: bounds the rows one request aggregates. */
export const MAX_STATS_WINDOW_DAYS = 90;
export const DEFAULT_STATS_WINDOW_DAYS = 14;

export const LicenseStatsQuerySchema = Type.Object({
  since: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        `Epoch millis: count validation attempts at or after this time (default ${DEFAULT_STATS_WINDOW_DAYS} days ago; ` +
        `at most ${MAX_STATS_WINDOW_DAYS} days ago, not in the future)`,
      examples: [1767225600000],
    }),
  ),
});
export type LicenseStatsQuery = Static<typeof LicenseStatsQuerySchema>;

export const HourCountSchema = Type.Object({
  hourEpochMillis: Type.Integer({ description: 'Start of the UTC hour (a multiple of 3,600,000)' }),
  successful: Type.Integer({ description: 'Attempts in this hour that validated' }),
  failed: Type.Integer({ description: 'Attempts in this hour that did not' }),
});
export type HourCount = Static<typeof HourCountSchema>;

export const LicenseStatsSchema = Type.Object({
  active: Type.Integer({ description: 'Licenses without an expiry or expiring after now' }),
  expired: Type.Integer({ description: 'Licenses whose expiry is now or earlier' }),
  byStatus: Type.Object(
    {
      active: Type.Integer(),
      notStarted: Type.Integer({ description: 'A firstValidation clock not started' }),
      grace: Type.Integer({ description: 'Past their expiry, within their grace days' }),
      expired: Type.Integer({ description: 'Past their expiry and any grace' }),
      revoked: Type.Integer(),
    },
    { description: "Licenses per lifecycle status now (a license body's `status`)" },
  ),
  validationsByHour: Type.Array(HourCountSchema, {
    description: 'Validation attempts since `since` per hour, oldest first; hours without attempts are left out',
  }),
});
export type LicenseStats = Static<typeof LicenseStatsSchema>;
