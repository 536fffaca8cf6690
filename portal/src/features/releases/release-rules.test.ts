import { describe, expect, it } from 'vitest';
import { allowedTransitions, formatBytes, mayChangeFile, mayDelete, percentSent, publishBlockedBy, versionProblem } from './release-rules';

const file = { name: 'a.jar', size: 1, sha256: 'a'.repeat(64), mainClass: null };

describe('what a release allows', () => {
  it('offers the API accepted transitions from each status', () => {
    expect(allowedTransitions({ status: 'draft' })).toEqual(['publish']);
    expect(allowedTransitions({ status: 'published' })).toEqual(['deprecate', 'archive']);
    expect(allowedTransitions({ status: 'deprecated' })).toEqual(['publish', 'archive']);
    expect(allowedTransitions({ status: 'archived' })).toEqual(['publish', 'deprecate']);
  });

  it('says why a draft without a file cannot be published', () => {
    expect(publishBlockedBy({ status: 'draft', file: null })).toBe('Upload its file first');
    expect(publishBlockedBy({ status: 'draft', file })).toBeNull();
    expect(publishBlockedBy({ status: 'archived', file })).toBeNull();
  });

  it('deletes only drafts and archived releases, and changes only a draft file', () => {
    expect(['draft', 'published', 'deprecated', 'archived'].filter((status) => mayDelete({ status: status as 'draft' }))).toEqual(['draft', 'archived']);
    expect(['draft', 'published', 'deprecated', 'archived'].filter((status) => mayChangeFile({ status: status as 'draft' }))).toEqual(['draft']);
  });
});

describe('versionProblem', () => {
  it('accepts the API version shape and names what is wrong otherwise', () => {
    expect(versionProblem('1.4.2+build_7-rc')).toBeNull();
    expect(versionProblem('  ')).toBe('Required.');
    expect(versionProblem('.1')).toBe('Start with a letter or a digit.');
    expect(versionProblem('1.0 beta')).toBe('Use only letters, digits and . + _ -');
    expect(versionProblem('1'.repeat(65))).toBe('At most 64 characters.');
  });
});

describe('formats', () => {
  it('writes sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12_000)).toBe('11.7 KB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MB');
  });

  it('reaches 100 percent only when every byte is sent', () => {
    expect(percentSent(0, 200)).toBe(0);
    expect(percentSent(199, 200)).toBe(99);
    expect(percentSent(200, 200)).toBe(100);
    expect(percentSent(0, 0)).toBe(100);
  });
});
