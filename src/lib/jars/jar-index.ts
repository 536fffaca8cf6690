// What the stamper learns at upload and keeps (as JSON, in a database column) so a download
// never reads the jar twice: where the directory is, and which entries hold placeholders.
export const PLACEHOLDERS = ['%%__LICENSING_KEY__%%', '%%__LICENSING_CUSTOMER__%%', '%%__LICENSING_DOWNLOAD__%%', '%%__LICENSING_NONCE__%%'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
/** Bytes every placeholder starts with: a class without them holds none (quick test). */
export const PLACEHOLDER_PREFIX = '%%__LICENSING_';

export interface JarIndex {
  /** Bumped when the shape changes; a stamper refuses an index of another format. */
  format: 1;
  /** Size of the file indexed: a download checks it was handed the same file. */
  size: number;
  /** Where the central directory is (offset, bytes, records), as read at upload. */
  directory: { offset: number; size: number; entries: number };
  /** The class entries holding placeholders, by name and local-header offset, in file order. */
  stamp: { name: string; offset: number; placeholders: Placeholder[] }[];
}

/** A class file's entry; the only entries stamping looks into. */
export const isClassEntry = (name: string): boolean => name.endsWith('.class');

/** Largest class file read for placeholders or constants (real ones are far smaller). */
export const MAX_CLASS_BYTES = 64 * 1024 * 1024;
