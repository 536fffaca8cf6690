// Named component schemas for the OpenAPI document. Routes use the TypeBox schemas the
// modules export (`CustomerSchema` in customers.schemas.ts); every place the document
// shows one of them becomes a `$ref` to `#/components/schemas/Customer`, so generated
// clients get readable type names. Nothing to register: a schema exported from a
// `*.schemas.ts` module is named after its export (without the `Schema` suffix).
import { readdirSync } from 'node:fs';

type Json = Record<string, any>;

/**
 * Canonical text of a schema, ignoring its own description (a use may reword it) and
 * examples (@fastify/swagger moves a body's examples to the media type).
 */
function keyOf(schema: Json): string {
  const { description: _description, examples: _examples, example: _example, ...rest } = schema;
  return canonical(rest);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // @fastify/swagger writes `const: x` as `enum: [x]`.
    if ('const' in value) {
      const { const: only, ...rest } = value as Json;
      value = { ...rest, enum: [only] };
    }
    const entries = Object.keys(value as Json)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Json)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Schema name by canonical text. */
export type NamedSchemas = Map<string, string>;

const isNameable = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && (value as Json).type === 'object' && (value as Json).properties !== undefined;

/** Collects the object schemas exported by http/schemas.ts and every modules/<name>/<name>.schemas module. */
export async function loadNamedSchemas(): Promise<NamedSchemas> {
  // .ts under tsx and Vitest, .js in dist/: the same kind as this file.
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const modulesDir = new URL('../modules/', import.meta.url);
  const files = [new URL(`./schemas${ext}`, import.meta.url).href];
  for (const dir of readdirSync(modulesDir, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(new URL(`${dir.name}/`, modulesDir))) {
      if (file.endsWith(`.schemas${ext}`)) files.push(new URL(`${dir.name}/${file}`, modulesDir).href);
    }
  }
  const named: NamedSchemas = new Map();
  const taken = new Set<string>();
  for (const file of files.sort()) {
    const exports = (await import(file)) as Json;
    for (const [exportName, value] of Object.entries(exports)) {
      if (!isNameable(value)) continue;
      const key = keyOf(JSON.parse(JSON.stringify(value)));
      if (named.has(key)) continue;
      let name = exportName.replace(/Schema$/, '');
      if (taken.has(name)) name = `${name}${named.size}`;
      named.set(key, name);
      taken.add(name);
    }
  }
  return named;
}

/** Replaces every named schema in the document's paths by a `$ref` to components.schemas. */
export function liftNamedSchemas(document: Json, named: NamedSchemas): Json {
  const components: Json = (document.components.schemas ??= {});

  /** `describedAbove`: the node is a media type's or parameter's `schema`, whose owner carries the description. */
  const lift = (node: unknown, isComponent = false, describedAbove = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => lift(item));
    if (node === null || typeof node !== 'object') return node;
    const name = isComponent ? undefined : isNameable(node) ? named.get(keyOf(node)) : undefined;
    if (name) {
      if (!components[name]) {
        components[name] = {}; // placeholder: a schema that contains itself stops here
        components[name] = lift(node, true);
      }
      const ref: Json = { $ref: `#/components/schemas/${name}` };
      // A use that words the schema differently (an error answer's reason) keeps its wording.
      const description = (node as Json).description;
      if (description && !describedAbove && description !== components[name].description) ref.description = description;
      return ref;
    }
    const copy: Json = {};
    for (const [key, value] of Object.entries(node)) copy[key] = lift(value, false, key === 'schema');
    return copy;
  };

  document.paths = lift(document.paths);
  return document;
}
