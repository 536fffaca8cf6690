// The shape of a release version and the length of its notes: one home for the API's
// schemas (validation and releases) and the portal's forms. No imports, so the portal can
// take it as it is.
export const RELEASE_VERSION = {
  /** 1-64 of `0-9 A-Z a-z . + _ -`, starting alphanumeric */
  pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$',
  maxLength: 64,
} as const;

export const RELEASE_NOTES_MAX_LENGTH = 10_000;
