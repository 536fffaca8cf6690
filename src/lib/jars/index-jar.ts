// At upload: which class entries hold placeholders, and the plugin's main class.
import { constantsAmong } from './class-constants.js';
import { PLACEHOLDER_PREFIX, PLACEHOLDERS, MAX_CLASS_BYTES, isClassEntry, type JarIndex } from './jar-index.js';
import { DESCRIPTOR_NAMES, MAX_DESCRIPTOR_BYTES, mainClassOf } from './plugin-descriptor.js';
import type { RandomAccessFile } from './random-access.js';
import { scanEntries } from './scan-entries.js';
import { readZipDirectory } from './zip-directory.js';

const isDescriptor = (name: string): boolean => (DESCRIPTOR_NAMES as readonly string[]).includes(name);

export async function indexJar(file: RandomAccessFile): Promise<{ mainClass: string | null; index: JarIndex }> {
  const dir = await readZipDirectory(file);
  const stamp: JarIndex['stamp'] = [];
  const descriptors = new Map<string, Buffer>();
  await scanEntries(
    file,
    dir,
    (entry) => (isClassEntry(entry.name) ? MAX_CLASS_BYTES : isDescriptor(entry.name) ? MAX_DESCRIPTOR_BYTES : null),
    (entry, content) => {
      if (!isClassEntry(entry.name)) descriptors.set(entry.name, content);
      else if (content.includes(PLACEHOLDER_PREFIX)) {
        const placeholders = constantsAmong(content, PLACEHOLDERS);
        if (placeholders.length > 0) stamp.push({ name: entry.name, offset: entry.localOffset, placeholders });
      }
    },
  );
  let mainClass: string | null = null;
  for (const name of DESCRIPTOR_NAMES) {
    const descriptor = descriptors.get(name);
    mainClass = descriptor ? mainClassOf(descriptor) : null;
    if (mainClass) break;
  }
  return { mainClass, index: { format: 1, size: file.size, directory: { offset: dir.offset, size: dir.size, entries: dir.entries }, stamp } };
}
