// At trace: what a (possibly leaked) jar carries of a download: the named entries and the
// constants of its classes a caller is looking for.
import { decodeModifiedUtf8, utf8Constants } from './class-constants.js';
import { MAX_CLASS_BYTES, isClassEntry } from './jar-index.js';
import type { RandomAccessFile } from './random-access.js';
import { scanEntries } from './scan-entries.js';
import { readZipDirectory } from './zip-directory.js';

/** A named entry larger than this is not one a download added. */
const MAX_NAMED_ENTRY_BYTES = 16 * 1024 * 1024;

/**
 * The named entries' contents (null when absent or unreadable; the last one when a name
 * repeats) and every distinct CONSTANT_Utf8 of every class for which `keep` is true, in the
 * order first met.
 */
export async function readStamps(jar: RandomAccessFile, entryNames: string[], keep: (s: string) => boolean): Promise<{ entries: Record<string, Buffer | null>; constants: string[] }> {
  const dir = await readZipDirectory(jar);
  const names = new Set(entryNames);
  const entries: Record<string, Buffer | null> = Object.fromEntries(entryNames.map((n) => [n, null]));
  const constants = new Set<string>();
  await scanEntries(
    jar,
    dir,
    (entry) => (names.has(entry.name) ? MAX_NAMED_ENTRY_BYTES : isClassEntry(entry.name) ? MAX_CLASS_BYTES : null),
    (entry, content) => {
      if (names.has(entry.name)) entries[entry.name] = Buffer.from(content);
      if (!isClassEntry(entry.name)) return;
      for (const c of utf8Constants(content) ?? []) {
        const text = decodeModifiedUtf8(content, c.start, c.end);
        if (!constants.has(text) && keep(text)) constants.add(text);
      }
    },
  );
  return { entries, constants: [...constants] };
}
