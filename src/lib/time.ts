// Units of time in milliseconds (and seconds where a protocol counts in seconds): the one
// home of these numbers. No imports, so the portal builds it in too.
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export const DAY_SECONDS = DAY_MS / SECOND_MS;
