// Releases as staff manage them: create, change, delete, their file, and their status
// (draft → published → deprecated → archived). Each change writes its audit entry in its
// transaction and bumps the counter every instance's version cache polls; publishing,
// deprecating and archiving also queue `releases.published|deprecated|archived`.
import type { Db } from '../../db/database.js';
import type { ReleasesTable } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/storage/errors.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Listed } from '../../http/list-response.js';
import { MAX_PAGE_SIZE } from '../../http/schemas.js';
import { clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit.service.js';
import { newEvent } from '../events/events.js';
import { enqueue } from '../events/outbox.repository.js';
import { findProduct } from '../products/products.repository.js';
import { deleteFiles, type WrittenFile } from './release-files.js';
import * as repo from './releases.repository.js';
import type { Channel, CreateReleaseBody, PatchReleaseBody, Release, ReleaseQuery, ReleaseStatus } from './releases.schemas.js';

export const RELEASE_NOT_FOUND = 'Release not found';
export const NO_FILE = 'Release has no file';

export const toRelease = (row: repo.ReleaseRow): Release => ({
  id: row.id,
  productId: row.product_id,
  version: row.version,
  channel: row.channel as Channel,
  status: row.status as ReleaseStatus,
  notes: row.notes,
  createdAtEpochMillis: row.created_at,
  publishedAtEpochMillis: row.published_at,
  file:
    row.file_id === null
      ? null
      : { name: row.file_name!, size: row.file_size!, sha256: row.file_sha256!, mainClass: row.file_main_class },
});

async function releaseRow(db: Db, id: string): Promise<repo.ReleaseRow> {
  const row = await repo.findRelease(db, id);
  if (!row) throw notFound(RELEASE_NOT_FOUND);
  return row;
}

export const getRelease = async (db: Db, id: string): Promise<Release> => toRelease(await releaseRow(db, id));

export async function listReleases(db: Db, productId: string, query: ReleaseQuery): Promise<Listed<Release>> {
  if (!(await findProduct(db, productId))) throw notFound('Product not found');
  const filter = { ...query, limit: query.limit === undefined ? undefined : Math.min(query.limit, MAX_PAGE_SIZE) };
  const rows = await repo.listReleases(db, productId, filter);
  const total = filter.limit === undefined && filter.offset === undefined ? rows.length : await repo.countReleases(db, productId, filter);
  return { records: rows.map(toRelease), total };
}

/** A version already taken in the channel (also under a race) is a 409 naming it. */
async function uniqueVersion<T>(version: string, channel: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Version ${version} already exists in channel ${channel}`);
    throw err;
  }
}

/** Writes the change's audit entry (and event, for a status) and bumps the version counter. */
async function changed(trx: Db, actor: string, action: string, release: Release, event?: string): Promise<Release> {
  await repo.bumpVersionCounter(trx);
  await recordAudit(trx, actor, action, release);
  if (event) await enqueue(trx, newEvent(event, release));
  return release;
}

export async function createRelease(trx: Db, actor: string, productId: string, body: CreateReleaseBody): Promise<Release> {
  if (!(await findProduct(trx, productId))) throw notFound('Product not found');
  const now = clock.now();
  const row: ReleasesTable = {
    id: newId(),
    product_id: productId,
    version: body.version,
    channel: body.channel ?? 'stable',
    status: 'draft',
    notes: body.notes ?? null,
    file_id: null,
    created_at: now,
    published_at: null,
    updated_at: now,
  };
  await uniqueVersion(row.version, row.channel, () => repo.insertRelease(trx, row));
  return changed(trx, actor, 'releases.create', await getRelease(trx, row.id));
}

export async function patchRelease(trx: Db, actor: string, id: string, patch: PatchReleaseBody): Promise<Release> {
  const row = await releaseRow(trx, id);
  const values: Partial<ReleasesTable> = { updated_at: clock.now() };
  if (patch.notes !== undefined) values.notes = patch.notes;
  if (patch.channel !== undefined && patch.channel !== row.channel) {
    if (row.status !== 'draft') throw conflict(`A ${row.status} release keeps its channel`);
    values.channel = patch.channel;
  }
  await uniqueVersion(row.version, values.channel ?? row.channel, () => repo.updateRelease(trx, id, values));
  return changed(trx, actor, 'releases.update', await getRelease(trx, id));
}

/** Only a draft or an archived release may go; its downloads and file go with it. */
export async function deleteRelease(trx: Db, actor: string, id: string): Promise<void> {
  const row = await releaseRow(trx, id);
  if (row.status !== 'draft' && row.status !== 'archived') throw conflict(`A ${row.status} release cannot be deleted: archive it first`);
  const release = toRelease(row);
  await repo.deleteRelease(trx, id);
  if (row.file_id !== null) await deleteFiles(trx, [row.file_id]);
  await changed(trx, actor, 'releases.delete', release);
}

/** 404 or 409 before a file is read: the release exists and is a draft. */
export async function assertFileMayChange(db: Db, id: string): Promise<void> {
  const row = await releaseRow(db, id);
  if (row.status !== 'draft') throw conflict(`A ${row.status} release's file cannot change`);
}

/** Gives the draft its (written, complete) file; the one it had is removed. */
export async function attachFile(trx: Db, actor: string, id: string, file: WrittenFile): Promise<Release> {
  const row = await releaseRow(trx, id);
  // Checked again in the transaction: it may have been published while the file arrived.
  if (row.status !== 'draft') throw conflict(`A ${row.status} release's file cannot change`);
  await repo.updateRelease(trx, id, { file_id: file.id, updated_at: clock.now() });
  if (row.file_id !== null) await deleteFiles(trx, [row.file_id]);
  return changed(trx, actor, 'releases.file', await getRelease(trx, id));
}

type Transition = 'publish' | 'deprecate' | 'archive';
const TARGET: Record<Transition, { status: ReleaseStatus; from: readonly ReleaseStatus[]; event: string }> = {
  publish: { status: 'published', from: ['draft', 'deprecated', 'archived'], event: 'releases.published' },
  deprecate: { status: 'deprecated', from: ['published', 'archived'], event: 'releases.deprecated' },
  archive: { status: 'archived', from: ['published', 'deprecated'], event: 'releases.archived' },
};

/** publish, deprecate or archive; publishing first sets publishedAtEpochMillis (later publications keep it). */
export async function transition(trx: Db, actor: string, id: string, to: Transition): Promise<Release> {
  const row = await releaseRow(trx, id);
  const target = TARGET[to];
  if (row.status === target.status) throw conflict(`Release is already ${target.status}`);
  if (to === 'publish' && row.file_id === null) throw conflict(NO_FILE);
  if (!target.from.includes(row.status as ReleaseStatus)) throw conflict(`A ${row.status} release cannot be ${target.status}: publish it first`);
  const now = clock.now();
  const values: Partial<ReleasesTable> = { status: target.status, updated_at: now };
  if (to === 'publish' && row.published_at === null) values.published_at = now;
  await repo.updateRelease(trx, id, values);
  return changed(trx, actor, `releases.${to}`, await getRelease(trx, id), target.event);
}

/** X-File-Name: a plain file name (no path), 1-255 characters. */
export function fileNameOf(header: string | string[] | undefined): string {
  const name = Array.isArray(header) ? header[0] : header;
  if (name === undefined || name.trim() === '') throw badRequest('X-File-Name header is required (the file name, e.g. MyPlugin-1.4.2.jar)');
  // eslint-disable-next-line no-control-regex
  if (name.length > 255 || /[/\\\u0000-\u001f\u007f]/.test(name)) throw badRequest('X-File-Name must be a file name of 1-255 characters without a path');
  return name;
}
