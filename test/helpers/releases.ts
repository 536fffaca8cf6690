// Releases in tests: a release with its file uploaded (and published), a download, and a
// small zip written by hand (stored entries) for the jar rules.
import { crc32 } from 'node:zlib';
import { request, type TestResponse } from './http.js';
import type { TestApp } from './test-app.js';

export interface ReleaseArgs {
  version?: string;
  channel?: string;
  notes?: string;
  name?: string;
  bytes?: Buffer;
  publish?: boolean;
}

/** Uploads `bytes` as the release's file (any content type: octet-stream unless said). */
export const uploadFile = (t: TestApp, releaseId: string, bytes: Buffer, name: string, headers: Record<string, string> = {}) =>
  t.admin('PUT', `/releases/${releaseId}/file`, { rawBody: bytes, headers: { 'content-type': 'application/octet-stream', 'x-file-name': name, ...headers } });

/** A release of the product with a file; published unless `publish: false`. */
export async function newRelease(t: TestApp, productId: string, args: ReleaseArgs = {}) {
  const created = await t.admin('POST', `/products/${productId}/releases`, {
    body: { version: args.version ?? `1.0.${Math.floor(Math.random() * 1e6)}`, ...(args.channel ? { channel: args.channel } : {}), ...(args.notes ? { notes: args.notes } : {}) },
  });
  if (created.status !== 201) throw new Error(`newRelease: ${created.status} ${created.text}`);
  const bytes = args.bytes ?? Buffer.from(`release ${created.json.version}`);
  const uploaded = await uploadFile(t, created.json.id, bytes, args.name ?? `plugin-${created.json.version}.bin`);
  if (uploaded.status !== 200) throw new Error(`newRelease upload: ${uploaded.status} ${uploaded.text}`);
  if (args.publish === false) return uploaded.json;
  const published = await t.admin('POST', `/releases/${created.json.id}/publish`);
  if (published.status !== 200) throw new Error(`newRelease publish: ${published.status} ${published.text}`);
  return published.json;
}

/** POST /releases/download, the body as bytes. */
export function downloadRelease(t: TestApp, body: Record<string, unknown>, localAddress = '127.0.0.1'): Promise<TestResponse & { bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    void import('node:http').then(({ default: http }) => {
      const payload = Buffer.from(JSON.stringify(body));
      const url = new URL('/releases/download', t.baseUrl);
      const req = http.request(
        { method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, agent: false, localAddress, headers: { 'content-type': 'application/json', 'content-length': String(payload.length) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            let json: unknown;
            try {
              json = res.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, bytes });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  });
}

/** A zip of stored (uncompressed) entries, as `jar` would write with -0. */
export function storedZip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export { request };
