// The plugin the stamping tests compile: the four placeholders as static final fields, in a
// method call and a returned literal, after a Long and a Double in the constant pool; one
// placeholder inlined into another class; a class whose name is not ASCII; a class with none.
// demo.Stamped prints each value it holds, non-ASCII characters as \uXXXX (javaEscaped).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Placeholder } from '../../src/lib/jars/index.js';
import { compileJava, run, writeTree } from './java-jars.js';

export const DEMO_SOURCES: Record<string, string> = {
  'demo/Stamped.java': `package demo;

public class Stamped {
    static final long BIG = 1234567890123L;
    static final double RATIO = 2.718281828459045;
    static final String KEY = "%%__LICENSING_KEY__%%";
    static final String CUSTOMER = "%%__LICENSING_CUSTOMER__%%";

    public static void main(String[] args) {
        show("long", Long.toString(BIG));
        show("double", Double.toString(RATIO));
        show("key", KEY);
        show("customer", CUSTOMER);
        show("download", "%%__LICENSING_DOWNLOAD__%%");
        show("nonce", nonce());
        show("inlined", Other.KEY_COPY);
        show("unicode-class", Grüße.download());
        show("substring", "prefix %%__LICENSING_KEY__%%");
        show("plain", Plain.TEXT);
    }

    static String nonce() { return "%%__LICENSING_NONCE__%%"; }

    static void show(String label, String value) {
        StringBuilder text = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c >= 0x20 && c < 0x7f && c != '\\\\') text.append(c);
            else text.append(String.format("\\\\u%04x", (int) c));
        }
        System.out.println(label + "=" + text);
    }
}
`,
  'demo/Other.java': `package demo;
public class Other { static final String KEY_COPY = Stamped.KEY; }
`,
  'demo/Grüße.java': `package demo;
public class Grüße { static String download() { return "%%__LICENSING_DOWNLOAD__%%"; } }
`,
  'demo/Plain.java': `package demo;
public class Plain { static final String TEXT = "no placeholder here"; }
`,
};

/** Resources beside the classes: a plugin descriptor and a file whose name is not ASCII. */
export const DEMO_RESOURCES: Record<string, string> = {
  'plugin.yml': "# the descriptor a Spigot server reads\nname: Demo\nversion: '1.0'\nmain: 'demo.Stamped'\napi-version: '1.20'\n",
  'assets/ünïcødé-名前.txt': 'a resource whose name is UTF-8\n',
  'config.yml': 'setting: %%__LICENSING_KEY__%%\n', // not a class: never stamped
};

export const VALUES: Record<Placeholder, string> = {
  '%%__LICENSING_KEY__%%': 'ABCDE-FGHJK-MNPQR-STVWX-YZ012',
  '%%__LICENSING_CUSTOMER__%%': 'Zoë 名前 😀 \u0000 end', // 2- and 3-byte, surrogates, NUL (C0 80)
  '%%__LICENSING_DOWNLOAD__%%': '0193a3c4-5d6e-7f80-9a1b-2c3d4e5f6071',
  '%%__LICENSING_NONCE__%%': 'q8Jm2Zx0b4WcR1sT',
};

/** What demo.Stamped prints for a value. */
export function javaEscaped(value: string): string {
  let text = '';
  for (const c of value) {
    for (let i = 0; i < c.length; i += 1) {
      const unit = c.charCodeAt(i);
      text += unit >= 0x20 && unit < 0x7f && c !== '\\' ? c[i] : `\\u${unit.toString(16).padStart(4, '0')}`;
    }
  }
  return text;
}

/** The lines demo.Stamped prints with `values` in place of the placeholders. */
export function expectedOutput(values: Record<Placeholder, string>): string[] {
  return [
    'long=1234567890123',
    'double=2.718281828459045',
    `key=${javaEscaped(values['%%__LICENSING_KEY__%%'])}`,
    `customer=${javaEscaped(values['%%__LICENSING_CUSTOMER__%%'])}`,
    `download=${javaEscaped(values['%%__LICENSING_DOWNLOAD__%%'])}`,
    `nonce=${javaEscaped(values['%%__LICENSING_NONCE__%%'])}`,
    `inlined=${javaEscaped(values['%%__LICENSING_KEY__%%'])}`,
    `unicode-class=${javaEscaped(values['%%__LICENSING_DOWNLOAD__%%'])}`,
    'substring=prefix %%__LICENSING_KEY__%%',
    'plain=no placeholder here',
  ];
}

/** Compiles the demo into `dir` and writes its resources: the two roots a jar is packed from. */
export async function buildDemo(dir: string): Promise<{ classes: string; resources: string }> {
  const classes = await compileJava(dir, DEMO_SOURCES);
  const resources = join(dir, 'resources');
  writeTree(resources, DEMO_RESOURCES);
  return { classes, resources };
}

const MiB = 1024 * 1024;

/** A jar of about 30 MB: the demo's classes between 16 MiB of random stored resources and
 *  18 base64 text files deflated to about 3/4 (Info-ZIP's zip, entry after entry). */
export async function buildLargeJar(dir: string, path: string): Promise<void> {
  const roots = await buildDemo(dir);
  const stored = join(dir, 'stored');
  const deflated = join(dir, 'deflated');
  writeTree(stored, Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`data/random-${i}.bin`, randomBytes(MiB)])));
  writeTree(deflated, Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`text/encoded-${i}.txt`, randomBytes((MiB * 3) / 4).toString('base64')])));
  await run('sh', ['-c', `cd ${stored} && zip -q -0 -r ${path} . && cd ${roots.classes} && zip -q -r ${path} . && cd ${roots.resources} && zip -q -r ${path} . && cd ${deflated} && zip -q -r ${path} .`]);
}
