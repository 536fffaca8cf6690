// Arrows point down (docs/architecture.md "Modules as plugins, events below licenses and
// webhooks"): read from the import statements of every module file (tests left out), no
// module imports one above it in LAYERS, and module folders import each other in no circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = join(SRC, 'modules');

/** Bottom first: a module may import the modules before it, never one after it. */
const LAYERS = [
  'events', // vocabulary, event bodies, the outbox, the subscription set, the change feed
  'audit', // writes each entry's event rows through events
  'webhooks', // endpoints and delivery: consumes events, knows no licenses
  'metrics',
  'signing',
  'blocklist',
  'roles',
  'two-factor', // the second factor of an account (its columns are on the staff row)
  'registration-keys',
  'staff',
  'auth', // sign-in: reads accounts, roles and second factors
  'api-tokens',
  'health',
  'customers',
  'license-settings', // what a license takes from its product: copied or live, bounds, resolvers
  'products',
  'licenses', // records, settings (one declaration), files, stats, the expiry scan
  'sharing', // reads a license's (else its product's) sharing alert
  'validation', // the decision, its facts, both engines, receipts, the public routes
  'orders',
  'sales', // the one purchase rule (convert, renew, reuse, create; move the tier) and staff renewals
  'marketplace',
  'releases', // licensed downloads: decided by validation, signed by signing, stamped by lib/jars
];

/** What a file imports: static, re-exported and dynamic specifiers. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

/** The top folder under src/ an import lands in: a module's name, or `db`, `lib`, `http`, `config`… */
function targetOf(file: string, specifier: string): { module?: string; area: string } | null {
  if (!specifier.startsWith('.')) return null; // a package
  const path = relative(SRC, resolve(dirname(file), specifier)).split(/[\\/]/);
  if (path[0] === 'modules') return { module: path[1]!, area: 'modules' };
  return { area: path[0]!.replace(/\.js$/, '') };
}

interface Edge {
  from: string;
  to: string;
  file: string;
}

function moduleImports(): { edges: Edge[]; outside: Edge[] } {
  const edges: Edge[] = [];
  const outside: Edge[] = [];
  for (const file of filesUnder(MODULES).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const from = relative(MODULES, file).split(/[\\/]/)[0]!;
    if (from === relative(MODULES, file)) continue; // a file directly in modules/ (this test's kind)
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = targetOf(file, specifier);
      if (!target) continue;
      const where = relative(SRC, file);
      if (target.module === undefined) outside.push({ from, to: target.area, file: where });
      else if (target.module !== from) edges.push({ from, to: target.module, file: where });
    }
  }
  return { edges, outside };
}

/** The sets of two or more folders that reach each other (Tarjan's strongly connected components). */
function circlesOf(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    next.set(from, (next.get(from) ?? new Set()).add(to));
    if (!next.has(to)) next.set(to, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}


describe('module imports', () => {
  const { edges, outside } = moduleImports();
  const show = (list: Edge[]) => list.map((e) => `${e.file} -> ${e.to}`);

  it('are read from the sources (the parser sees the imports it must judge)', () => {
    expect(importsOf("import type { A } from './a.js';\nexport { b } from '../b/b.js';\nimport {\n  c,\n} from '../c/c.js';")).toEqual([
      './a.js',
      '../b/b.js',
      '../c/c.js',
    ]);
    expect(edges.some((e) => e.from === 'audit' && e.to === 'events')).toBe(true);
    expect(edges.some((e) => e.from === 'licenses' && e.to === 'events')).toBe(true);
  });

  it('finds circles, also long ones', () => {
    expect(circlesOf([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }])).toEqual([['a', 'b', 'c']]);
    expect(circlesOf([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toEqual([]);
  });

  it('name every module folder in LAYERS', () => {
    const folders = readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it('events imports no module: only db, lib and http', () => {
    expect(show(edges.filter((e) => e.from === 'events'))).toEqual([]);
    expect(show(outside.filter((e) => e.from === 'events' && !['db', 'lib', 'http'].includes(e.to)))).toEqual([]);
  });

  it('webhooks imports nothing from licenses (nor any module but events and audit)', () => {
    expect(show(edges.filter((e) => e.from === 'webhooks' && !['events', 'audit'].includes(e.to)))).toEqual([]);
  });

  it('point down: no module imports one above it in LAYERS', () => {
    const rank = (m: string) => LAYERS.indexOf(m);
    const up = edges.filter((e) => rank(e.to) > rank(e.from));
    expect(show(up)).toEqual([]);
  });

  it('form no circle between module folders', () => {
    expect(circlesOf(edges)).toEqual([]);
  });
});
