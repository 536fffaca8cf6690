// `main` of a plugin's descriptor: Bukkit/Spigot's plugin.yml, Paper's paper-plugin.yml,
// BungeeCord's bungee.yml, asked in that order. Read with a real YAML parser (the `yaml`
// package): quoting, comments, flow maps and anchors all occur in real descriptors.
import { parse } from 'yaml';

export const DESCRIPTOR_NAMES = ['plugin.yml', 'paper-plugin.yml', 'bungee.yml'] as const;
/** A descriptor is a few KiB; anything this large is not one worth parsing. */
export const MAX_DESCRIPTOR_BYTES = 1024 * 1024;

/** A Java binary class name (dots between identifiers); what a plugin loader can load. */
const CLASS_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;
const MAX_CLASS_NAME = 255;

/** The descriptor's `main` when it names a class; null for no, or unreadable, YAML. */
export function mainClassOf(descriptor: Buffer): string | null {
  let document: unknown;
  try {
    // uniqueKeys off: SnakeYAML, which the servers use, lets a repeated key win.
    document = parse(descriptor.toString('utf8'), { uniqueKeys: false, maxAliasCount: 100 });
  } catch {
    return null;
  }
  if (typeof document !== 'object' || document === null) return null;
  const main = (document as Record<string, unknown>).main;
  if (typeof main !== 'string') return null;
  const name = main.trim();
  return name.length <= MAX_CLASS_NAME && CLASS_NAME.test(name) ? name : null;
}
