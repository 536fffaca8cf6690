// The constant pool of a class file (JVMS §4.4), walked entry by entry: which CONSTANT_Utf8
// entries a class holds, and the class with some of them replaced. Only the Utf8 entries
// named change (bytes and their u2 length); every other byte of the class stays as it was,
// so indices, attributes and code keep their meaning.

const MAGIC = 0xcafebabe;
const TAG_UTF8 = 1;

/** Bytes after the tag of every fixed-size constant kind; Long and Double take two slots. */
const FIXED_SIZES: Record<number, number> = {
  3: 4, // Integer
  4: 4, // Float
  5: 8, // Long
  6: 8, // Double
  7: 2, // Class
  8: 2, // String
  9: 4, // Fieldref
  10: 4, // Methodref
  11: 4, // InterfaceMethodref
  12: 4, // NameAndType
  15: 3, // MethodHandle
  16: 2, // MethodType
  17: 4, // Dynamic
  18: 4, // InvokeDynamic
  19: 2, // Module
  20: 2, // Package
};

/** One CONSTANT_Utf8 entry: `lengthAt` is its u2 length, its bytes are [start, end). */
export interface Utf8Constant {
  lengthAt: number;
  start: number;
  end: number;
}

/** Every CONSTANT_Utf8 of a class file in pool order; null when the bytes are not a class file. */
export function utf8Constants(classFile: Buffer): Utf8Constant[] | null {
  if (classFile.length < 10 || classFile.readUInt32BE(0) !== MAGIC) return null;
  const count = classFile.readUInt16BE(8);
  const found: Utf8Constant[] = [];
  let at = 10;
  for (let slot = 1; slot < count; slot += 1) {
    if (at >= classFile.length) return null;
    const tag = classFile[at]!;
    if (tag === TAG_UTF8) {
      if (at + 3 > classFile.length) return null;
      const length = classFile.readUInt16BE(at + 1);
      const start = at + 3;
      if (start + length > classFile.length) return null;
      found.push({ lengthAt: at + 1, start, end: start + length });
      at = start + length;
      continue;
    }
    const size = FIXED_SIZES[tag];
    if (size === undefined || at + 1 + size > classFile.length) return null;
    at += 1 + size;
    if (tag === 5 || tag === 6) slot += 1; // a Long or Double also takes the next index
  }
  return found;
}

/**
 * The class with each CONSTANT_Utf8 whose bytes are a key of `replacements` (read as latin1,
 * which maps bytes 1:1) replaced by that key's value, already in modified UTF-8. Returns the
 * same buffer when nothing matched (or the bytes are not a class file).
 */
export function replaceUtf8Constants(classFile: Buffer, replacements: ReadonlyMap<string, Buffer>): Buffer {
  const constants = utf8Constants(classFile);
  if (!constants) return classFile;
  const lengths = new Set([...replacements.keys()].map((k) => k.length));
  const parts: Buffer[] = [];
  let copiedTo = 0;
  for (const c of constants) {
    if (!lengths.has(c.end - c.start)) continue;
    const value = replacements.get(classFile.toString('latin1', c.start, c.end));
    if (!value) continue;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(value.length);
    parts.push(classFile.subarray(copiedTo, c.lengthAt), length, value);
    copiedTo = c.end;
  }
  if (parts.length === 0) return classFile;
  parts.push(classFile.subarray(copiedTo));
  return Buffer.concat(parts);
}

/** The distinct keys of `wanted` (ASCII strings) that some CONSTANT_Utf8 of the class equals. */
export function constantsAmong<T extends string>(classFile: Buffer, wanted: readonly T[]): T[] {
  const constants = utf8Constants(classFile);
  if (!constants) return [];
  const found = new Set<T>();
  for (const c of constants) {
    const text = classFile.toString('latin1', c.start, c.end);
    for (const w of wanted) if (text === w) found.add(w);
  }
  return wanted.filter((w) => found.has(w));
}

/**
 * Modified UTF-8 (JVMS §4.4.7): each UTF-16 unit on its own (a supplementary character is
 * its two surrogates, three bytes each), U+0000 as C0 80. At most 65535 bytes.
 */
export function encodeModifiedUtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x01 && unit <= 0x7f) bytes.push(unit);
    else if (unit <= 0x7ff) bytes.push(0xc0 | (unit >> 6), 0x80 | (unit & 0x3f));
    else bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
  }
  if (bytes.length > 0xffff) throw new RangeError(`A class-file constant holds at most 65535 bytes; this value needs ${bytes.length}`);
  return Buffer.from(bytes);
}

/** The text of modified UTF-8 bytes; a malformed sequence reads as U+FFFD. */
export function decodeModifiedUtf8(bytes: Buffer, start = 0, end = bytes.length): string {
  let text = '';
  let i = start;
  const continuation = (at: number) => at < end && (bytes[at]! & 0xc0) === 0x80;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      text += String.fromCharCode(b);
      i += 1;
    } else if ((b & 0xe0) === 0xc0 && continuation(i + 1)) {
      text += String.fromCharCode(((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f));
      i += 2;
    } else if ((b & 0xf0) === 0xe0 && continuation(i + 1) && continuation(i + 2)) {
      text += String.fromCharCode(((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f));
      i += 3;
    } else {
      text += '\ufffd';
      i += 1;
    }
  }
  return text;
}
