// Every relative link in the README, docs/ and the client READMEs points at a file of this
// repository: a vendor following the docs never lands on a name that is not here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const markdown = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  'clients/typescript/README.md',
  'clients/java/README.md',
  'src/db/storage/README.md',
];

/** Relative targets of [text](target) links, without #anchors; external and in-page links skipped. */
function relativeLinks(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^(https?:|mailto:|#)/.test(target))
    .map((target) => decodeURIComponent(target.split('#')[0]!));
}

describe('documentation links', () => {
  it.each(markdown)('%s links only to files that exist', (file) => {
    const missing = relativeLinks(readFileSync(join(ROOT, file), 'utf8'))
      .map((target) => relative(ROOT, join(ROOT, dirname(file), target)))
      .filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('finds the links it checks (the checker itself works)', () => {
    expect(relativeLinks('see [a](docs/a.md#x), [b](https://x.y), [c](#here), `[d](e.md)`')).toEqual(['docs/a.md']);
    expect(relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(3);
  });
});
