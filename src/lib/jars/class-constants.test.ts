// The constant-pool walk on hand-made class files (Long and Double taking two slots, every
// tag kind), modified UTF-8 both ways, and `main` of plugin descriptors.
import { describe, expect, it } from 'vitest';
import { constantsAmong, decodeModifiedUtf8, encodeModifiedUtf8, replaceUtf8Constants, utf8Constants } from './class-constants.js';
import { mainClassOf } from './plugin-descriptor.js';

const KEY = '%%__LICENSING_KEY__%%';

/** A class file: magic, version 61, the pool entries (slot count given), then `tail`. */
function classFile(slots: number, entries: Buffer[], tail = Buffer.from([0x00, 0x21, 0x00, 0x02])): Buffer {
  const head = Buffer.alloc(10);
  head.writeUInt32BE(0xcafebabe, 0);
  head.writeUInt16BE(61, 6);
  head.writeUInt16BE(slots + 1, 8);
  return Buffer.concat([head, ...entries, tail]);
}
const utf8 = (text: string) => {
  const bytes = encodeModifiedUtf8(text);
  return Buffer.concat([Buffer.from([1, bytes.length >> 8, bytes.length & 0xff]), bytes]);
};
// A Long whose 8 bytes look like a Utf8 entry if read as one slot too few.
const long = Buffer.from([5, 1, 0, 21, ...Buffer.from('%%__L')]);
const double = Buffer.from([6, 0x40, 0x05, 0xbf, 0x0a, 0x8b, 0x14, 0x57, 0x69]);
const others = [
  Buffer.from([3, 0, 0, 0, 7]), // Integer
  Buffer.from([4, 0x3f, 0x80, 0, 0]), // Float
  Buffer.from([7, 0, 1]), // Class
  Buffer.from([8, 0, 1]), // String
  Buffer.from([9, 0, 1, 0, 2]), // Fieldref
  Buffer.from([10, 0, 1, 0, 2]), // Methodref
  Buffer.from([11, 0, 1, 0, 2]), // InterfaceMethodref
  Buffer.from([12, 0, 1, 0, 2]), // NameAndType
  Buffer.from([15, 1, 0, 1]), // MethodHandle
  Buffer.from([16, 0, 1]), // MethodType
  Buffer.from([17, 0, 0, 0, 1]), // Dynamic
  Buffer.from([18, 0, 0, 0, 1]), // InvokeDynamic
  Buffer.from([19, 0, 1]), // Module
  Buffer.from([20, 0, 1]), // Package
];

describe('constant pool', () => {
  // Slots: Long (2), Double (2), 14 others, then the placeholder and a plain string.
  const pool = [long, double, ...others, utf8(KEY), utf8('plain')];
  const cls = classFile(2 + 2 + others.length + 2, pool);

  it('finds the Utf8 entries after Long and Double, which take two slots each', () => {
    const found = utf8Constants(cls)!;
    expect(found.map((c) => cls.toString('latin1', c.start, c.end))).toEqual([KEY, 'plain']);
    expect(constantsAmong(cls, [KEY, '%%__LICENSING_NONCE__%%'])).toEqual([KEY]);
  });

  it('replaces a Utf8 entry equal to a key (length updated), leaving every other byte as it was', () => {
    const value = encodeModifiedUtf8('ABCDE-12345');
    const stamped = replaceUtf8Constants(cls, new Map([[KEY, value]]));
    expect(stamped).toEqual(classFile(2 + 2 + others.length + 2, [long, double, ...others, utf8('ABCDE-12345'), utf8('plain')]));
    expect(replaceUtf8Constants(cls, new Map([['%%__LICENSING_NONCE__%%', value]]))).toBe(cls);
  });

  it('answers null (no constants, nothing replaced) for what is not a class file', () => {
    expect(utf8Constants(Buffer.from('not a class'))).toBeNull();
    expect(utf8Constants(classFile(1, [Buffer.from([2, 0, 0])]))).toBeNull(); // tag 2 does not exist
    expect(utf8Constants(cls.subarray(0, 40))).toBeNull(); // truncated inside the pool
    expect(constantsAmong(Buffer.from(KEY), [KEY])).toEqual([]);
  });
});

describe('modified UTF-8', () => {
  it('encodes NUL as C0 80 and a supplementary character as two 3-byte surrogates', () => {
    expect(encodeModifiedUtf8('a\u0000é€😀').toString('hex')).toBe('61c080c3a9e282aceda0bdedb880');
    for (const text of ['', 'plain', 'Zoë 名前 😀 \u0000 end', '\u07ff\u0800\uffff']) expect(decodeModifiedUtf8(encodeModifiedUtf8(text))).toBe(text);
  });

  it('refuses a value over 65535 bytes and reads malformed bytes as U+FFFD', () => {
    expect(() => encodeModifiedUtf8('€'.repeat(21_846))).toThrow(RangeError);
    expect(encodeModifiedUtf8('€'.repeat(21_845))).toHaveLength(65_535);
    expect(decodeModifiedUtf8(Buffer.from([0x61, 0xc3, 0x62, 0xff]))).toBe('a\ufffdb\ufffd');
  });
});

describe('main of a plugin descriptor', () => {
  it('reads main however the YAML writes it', () => {
    expect(mainClassOf(Buffer.from("name: X\nmain: 'com.example.Main' # the entry point\n"))).toBe('com.example.Main');
    expect(mainClassOf(Buffer.from('{name: X, main: "com.example.Flow"}'))).toBe('com.example.Flow');
    expect(mainClassOf(Buffer.from('base: &m dev.Über\nmain: *m\n'))).toBe('dev.Über');
  });

  it('answers null for no main, a main that is no class name, or what is not YAML', () => {
    expect(mainClassOf(Buffer.from('name: X\n'))).toBeNull();
    expect(mainClassOf(Buffer.from('main: [a, b]\n'))).toBeNull();
    expect(mainClassOf(Buffer.from('main: "not a class; rm -rf"\n'))).toBeNull();
    expect(mainClassOf(Buffer.from('main: "unclosed\n'))).toBeNull();
    expect(mainClassOf(Buffer.from('- a list\n'))).toBeNull();
  });
});
