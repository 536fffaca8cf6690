// The queries of release files: the file row and its chunks.
import type { Db } from '../../db/database.js';
import type { ReleaseFilesTable } from '../../db/schema.js';

export const insertFile = (db: Db, row: ReleaseFilesTable) => db.insertInto('release_files').values(row).execute();

/** Inserts consecutive chunks from `firstIndex` on, in one statement. */
export const insertChunks = (db: Db, fileId: string, firstIndex: number, chunks: readonly Buffer[]) =>
  db
    .insertInto('release_file_chunks')
    .values(chunks.map((data, i) => ({ file_id: fileId, chunk_index: firstIndex + i, data })))
    .execute();

export async function readChunk(db: Db, fileId: string, index: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('release_file_chunks').select('data').where('file_id', '=', fileId).where('chunk_index', '=', index).executeTakeFirst();
  return row?.data;
}

/** Chunks `first` to `first + count - 1`, in order, in one read (fewer when some are missing). */
export async function readChunks(db: Db, fileId: string, first: number, count: number): Promise<Buffer[]> {
  const rows = await db
    .selectFrom('release_file_chunks')
    .select('data')
    .where('file_id', '=', fileId)
    .where('chunk_index', '>=', first)
    .where('chunk_index', '<', first + count)
    .orderBy('chunk_index')
    .execute();
  return rows.map((row) => row.data);
}

export const completeFile = (db: Db, id: string, values: Pick<ReleaseFilesTable, 'size' | 'sha256' | 'main_class' | 'jar_index' | 'completed_at'>) =>
  db.updateTable('release_files').set(values).where('id', '=', id).execute();

/** Removes files and (by cascade) their chunks. */
export async function deleteFiles(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('release_file_chunks').where('file_id', 'in', ids).execute();
  await db.deleteFrom('release_files').where('id', 'in', ids).execute();
}
