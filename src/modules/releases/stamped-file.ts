// A stamped jar, made once per download into a private temporary file while its sha256 is
// computed, then sent from there: X-Release-Sha256 must be known before the first byte,
// and the jar library's stampJar() is a stream that cannot say it in advance. The spool
// holds no more than one jar on disk and one read slice in memory (a Buffer of its own, which
// the sender frees once sent); it is removed when the answer ends (sent or cut).
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { CHUNK_SIZE } from './release-files.js';
import { pipeline } from 'node:stream/promises';

export interface Spooled {
  sha256: string;
  size: number;
  /** The spooled bytes in slices, each a Buffer of its own; the file is removed when the reading ends or stops. */
  slices(): AsyncGenerator<Buffer>;
  /** Removes the file without reading it (the answer was not sent). */
  discard(): Promise<void>;
}

export async function spool(source: Readable): Promise<Spooled> {
  const dir = await mkdtemp(join(tmpdir(), 'licensing-stamped-'));
  const path = join(dir, 'download.jar');
  const hash = createHash('sha256');
  let size = 0;
  const discard = () => rm(dir, { recursive: true, force: true });
  try {
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(source, measure, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    await discard();
    throw err;
  }
  return {
    sha256: hash.digest('hex'),
    size,
    async *slices() {
      try {
        const file = await open(path, 'r');
        try {
          for (let position = 0; position < size; ) {
            const slice = Buffer.allocUnsafeSlow(Math.min(CHUNK_SIZE, size - position));
            const { bytesRead } = await file.read(slice, 0, slice.length, position);
            if (bytesRead === 0) throw new Error('a stamped jar\'s spool file ended early');
            position += bytesRead;
            yield bytesRead === slice.length ? slice : slice.subarray(0, bytesRead);
          }
        } finally {
          await file.close();
        }
      } finally {
        await discard();
      }
    },
    discard,
  };
}
