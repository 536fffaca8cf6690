// A machine id that belongs to the installation, not the hardware: a random id created
// once and kept in a file the application names. Containers and game panels change
// hardware ids and MAC addresses on every restart or move; a file kept with the
// installation keeps its id until the buyer copies the server elsewhere on purpose.
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Environment variable that overrides the stored id (a panel that wants to set it itself). */
export const MACHINE_ID_ENV = 'LICENSE_MACHINE_ID';

const VALID_ID = /^[\x21-\x7e]{1,1024}$/;

async function stored(file: string): Promise<string | null> {
  try {
    const id = (await readFile(file, 'utf8')).trim();
    return VALID_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * The id kept in `file` (created on first use: mode 0600, written atomically), or the
 * LICENSE_MACHINE_ID environment variable when set. Callers racing on a first start agree
 * on one id: the file is published with link(2), which never replaces an existing one.
 */
export async function machineId(file: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const override = env[MACHINE_ID_ENV]?.trim();
  if (override) return override;
  const existing = await stored(file);
  if (existing) return existing;

  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.machine-id-${process.pid}-${randomUUID()}.tmp`);
  await writeFile(temp, `${randomUUID()}\n`, { mode: 0o600 });
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another caller won the race, or the file is damaged: keep a valid one, replace a damaged one.
    if (!(await stored(file))) await rename(temp, file);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const id = await stored(file);
  if (!id) throw new Error(`machine id file ${file} could not be written`);
  return id;
}
