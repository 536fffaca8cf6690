// The routes whose body is a file, read raw as it arrives whatever its content type: the
// upload of a release's file (streamed into the database in chunks, never whole in memory)
// and the trace of a leaked jar (spooled to a private temporary file, read at random).
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.js';
import { ErrorAnswer, IdParams } from '../../http/schemas.js';
import { indexJar, NotAZipError } from '../../lib/jars/index.js';
import { completeFile, deleteFiles, randomAccess, tooLarge, writeFile } from './release-files.js';
import { diskFile, NOT_STAMPED, trace } from './release-trace.js';
import * as releases from './releases.service.js';
import { ReleaseSchema, TraceResultSchema } from './releases.schemas.js';

const tags = ['Releases'];
const BinaryBody = Type.String({ format: 'binary', description: 'The file\'s bytes as the raw body (any content type)' });

/** 413 before a byte is read when the declared length is already too large. */
function checkDeclaredLength(request: FastifyRequest, maxBytes: number): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
}

export const releaseFilesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Raw bodies, whatever the content type: the handler reads the request stream itself
  // (nothing parses it, and nothing holds it whole).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const maxBytes = app.config.releaseMaxBytes;

  app.put(
    '/releases/:id/file',
    {
      config: { permission: 'releases:write', openapi: { documentedBody: BinaryBody } },
      schema: {
        tags,
        summary: "Upload a draft release's file",
        description:
          'The raw file is the body (any content type), its name in `X-File-Name`; it is stored in the database as it arrives ' +
          `(at most RELEASE_MAX_BYTES, default 100 MiB) and its sha256 computed on the way. A \`.jar\` must be a readable zip, and \`main\` ` +
          "of its plugin.yml, paper-plugin.yml or bungee.yml becomes `mainClass`. Replaces the draft's file; a published (deprecated, " +
          'archived) release\'s file cannot change. Audited as `releases.file`.',
        consumes: ['application/octet-stream'],
        params: IdParams,
        headers: Type.Object({ 'x-file-name': Type.Optional(Type.String({ description: 'The file name, e.g. MyPlugin-1.4.2.jar (required)' })) }),
        response: {
          200: ReleaseSchema,
          400: ErrorAnswer('`X-File-Name` missing or not a plain file name, or a `.jar` that is not a readable zip'),
          404: ErrorAnswer(releases.RELEASE_NOT_FOUND),
          409: ErrorAnswer('The release is not a draft'),
          413: ErrorAnswer('The file is larger than RELEASE_MAX_BYTES'),
        },
      },
    },
    async (request) => {
      const name = releases.fileNameOf(request.headers['x-file-name']);
      await releases.assertFileMayChange(app.db, request.params.id);
      checkDeclaredLength(request, maxBytes);
      // Not destroyed when the write stops early (413): the rest is discarded once the answer is sent, and the client reads it.
      const file = await writeFile(app.db, name, request.raw.iterator({ destroyOnReturn: false }), maxBytes);
      try {
        let jar: Awaited<ReturnType<typeof indexJar>> | null = null;
        if (name.toLowerCase().endsWith('.jar')) {
          try {
            jar = await indexJar(randomAccess(app.db, { id: file.id, size: file.size, chunk_size: file.chunkSize }));
          } catch (err) {
            if (err instanceof NotAZipError) throw badRequest(`${name} is not a readable jar (zip): ${err.message}`);
            throw err;
          }
        }
        await completeFile(app.db, file, jar);
        return await app.transaction((trx) => releases.attachFile(trx, request.actor.username, request.params.id, file));
      } catch (err) {
        await deleteFiles(app.db, [file.id]).catch(() => undefined);
        throw err;
      }
    },
  );

  app.post(
    '/releases/trace',
    {
      config: { permission: 'releases:read', openapi: { documentedBody: BinaryBody } },
      schema: {
        tags,
        summary: 'Find the download a leaked jar came from',
        description:
          'The jar is the raw body (at most RELEASE_MAX_BYTES). Found by its signed `META-INF/LICENSING-DOWNLOAD.jws` (verified with ' +
          "the service's published keys) or, when that entry was stripped, by a value stamped into its class files.",
        consumes: ['application/octet-stream'],
        response: {
          200: TraceResultSchema,
          400: ErrorAnswer('The body is not a readable jar (zip)'),
          404: ErrorAnswer(`\`${NOT_STAMPED}\`: nothing in the jar names a download of this service`),
          413: ErrorAnswer('The jar is larger than RELEASE_MAX_BYTES'),
        },
      },
    },
    async (request) => {
      checkDeclaredLength(request, maxBytes);
      const dir = await mkdtemp(join(tmpdir(), 'licensing-trace-'));
      try {
        const path = join(dir, 'upload.jar');
        let size = 0;
        const limit = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(size > maxBytes ? tooLarge(maxBytes) : null, chunk);
          },
        });
        await pipeline(request.raw, limit, createWriteStream(path, { mode: 0o600 }));
        const jar = await diskFile(path);
        try {
          return await trace(app.db, jar.file, (await app.signingKeys.jwks()).keys);
        } finally {
          await jar.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
};
