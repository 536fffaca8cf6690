// Tracing a leaked jar: the download entry when it is there, the stamped constants when it was
// stripped (by Info-ZIP's `zip -d`), nothing from a jar that was never stamped.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, packJar, run } from '../../../test/helpers/java-jars.js';
import { VALUES, buildDemo } from '../../../test/helpers/stamping-fixture.js';
import { bufferFile, indexJar, readStamps, stampJar } from './index.js';

const JWS_NAME = 'META-INF/LICENSING-DOWNLOAD.jws';
const JWS = Buffer.from('eyJ0eXAiOiJkb3dubG9hZCJ9.eyJkb3dubG9hZElkIjoiMDE5M2EzYzQifQ.c2ln');
const DOWNLOAD = VALUES['%%__LICENSING_DOWNLOAD__%%'];
const KEY = VALUES['%%__LICENSING_KEY__%%'];
const CUSTOMER = VALUES['%%__LICENSING_CUSTOMER__%%'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dir: string;
let original: Buffer;
let stampedPath: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'read-stamps-'));
  const roots = await buildDemo(dir);
  original = readFileSync(await packJar(join(dir, 'plugin.jar'), [roots.classes, roots.resources]));
  const { index } = await indexJar(bufferFile(original));
  stampedPath = join(dir, 'stamped.jar');
  writeFileSync(stampedPath, await collect(stampJar(bufferFile(original), index, VALUES, [{ name: JWS_NAME, data: JWS }])));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readStamps', () => {
  it('finds the download entry and the stamped constants of a stamped jar', async () => {
    const seen: string[] = [];
    const found = await readStamps(bufferFile(readFileSync(stampedPath)), [JWS_NAME, 'META-INF/absent'], (s) => {
      seen.push(s);
      return UUID.test(s) || s === KEY || s === CUSTOMER;
    });
    expect(found.entries[JWS_NAME]).toEqual(JWS);
    expect(found.entries['META-INF/absent']).toBeNull();
    expect(found.constants.sort()).toEqual([DOWNLOAD, KEY, CUSTOMER].sort()); // each once, the customer's decoded whole
    expect(seen).toContain('demo/Stamped'); // every Utf8 of every class is offered
  });

  it('finds the stamped constants when the entry was stripped', async () => {
    const stripped = join(dir, 'stripped.jar');
    copyFileSync(stampedPath, stripped);
    await run('zip', ['-qd', stripped, JWS_NAME]);
    expect((await run('jar', ['tf', stripped])).stdout).not.toContain(JWS_NAME);
    const found = await readStamps(bufferFile(readFileSync(stripped)), [JWS_NAME], (s) => UUID.test(s));
    expect(found).toEqual({ entries: { [JWS_NAME]: null }, constants: [DOWNLOAD] });
  });

  it('finds nothing in a jar that was never stamped', async () => {
    const found = await readStamps(bufferFile(original), [JWS_NAME], (s) => UUID.test(s) || s.startsWith('ABCDE-'));
    expect(found).toEqual({ entries: { [JWS_NAME]: null }, constants: [] });
  });
});
