// A stamped jar, made once per download into a private temporary file while its sha256 is
// computed, then sent from there: X-Release-Sha256 must be known before the first byte,
// and the jar library's stampJar() is a stream that cannot say it in advance. The spool
// holds no more than one jar on disk and one read buffer in memory; it is removed when the
// answer ends (sent or cut).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Spooled {
  sha256: string;
  size: number;
  /** The spooled bytes; the file is removed when the stream closes. */
  open(): Readable;
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
    open() {
      const stream = createReadStream(path);
      stream.once('close', () => void discard());
      return stream;
    },
    discard,
  };
}
