// What may be done to a release in each status (the API's rules, so the portal offers only
// what it would accept), and the small formats of its file and downloads.
import { RELEASE_NOTES_MAX_LENGTH, RELEASE_VERSION } from '../../lib/from-server';
import type { Release, ReleaseChannel, ReleaseStatus } from '../../types/api';

export const CHANNELS: readonly ReleaseChannel[] = ['stable', 'beta', 'alpha'];
export const NOTES_MAX_LENGTH = RELEASE_NOTES_MAX_LENGTH;

/** The API's version rule (RELEASE_VERSION: `0-9 A-Z a-z . + _ -`, starting alphanumeric), in plain words. */
export function versionProblem(text: string): string | null {
  const version = text.trim();
  if (version === '') return 'Required.';
  if (version.length > RELEASE_VERSION.maxLength) return `At most ${RELEASE_VERSION.maxLength} characters.`;
  if (!/^[0-9A-Za-z]/.test(version)) return 'Start with a letter or a digit.';
  return new RegExp(RELEASE_VERSION.pattern).test(version) ? null : 'Use only letters, digits and . + _ -';
}

export type Transition = 'publish' | 'deprecate' | 'archive';

const FROM: Record<Transition, readonly ReleaseStatus[]> = {
  publish: ['draft', 'deprecated', 'archived'],
  deprecate: ['published', 'archived'],
  archive: ['published', 'deprecated'],
};

/** The transitions the API accepts from the release's status (publishing a draft also needs its file). */
export const allowedTransitions = (release: Pick<Release, 'status'>): Transition[] =>
  (Object.keys(FROM) as Transition[]).filter((to) => FROM[to].includes(release.status));

/** Why Publish would be refused although the status allows it; null when it would not be. */
export const publishBlockedBy = (release: Pick<Release, 'status' | 'file'>): string | null =>
  release.status === 'draft' && release.file === null ? 'Upload its file first' : null;

/** Only a draft or an archived release may be deleted. */
export const mayDelete = (release: Pick<Release, 'status'>) => release.status === 'draft' || release.status === 'archived';

/** Only a draft's file may be uploaded or replaced. */
export const mayChangeFile = (release: Pick<Release, 'status'>) => release.status === 'draft';

export const STATUS_LABELS: Record<ReleaseStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  deprecated: 'Deprecated',
  archived: 'Archived',
};

/** 1536 → "1.5 KB": binary units, as the size limit (RELEASE_MAX_BYTES, 100 MiB) is counted. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** The first 12 hex digits of a sha256: enough to tell files apart at a glance. */
export const shortSha = (sha256: string) => sha256.slice(0, 12);

/** Whole percent of an upload, 100 only once every byte is sent. */
export function percentSent(sent: number, total: number): number {
  if (total <= 0) return 100;
  return sent >= total ? 100 : Math.min(99, Math.floor((sent / total) * 100));
}
