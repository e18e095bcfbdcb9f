import { lstat, readdir, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../errors/harness-error.js';
import { readRegularFile } from '../files/read-regular-file.js';

/**
 * The file the harness puts into a `latest` folder it makes by copying (where
 * symlinks are not allowed), so a later run knows that folder is its own to replace.
 */
export const LATEST_COPY_MARKER = '.svc-harness-latest';

/** Largest `latest.json` read: the harness's is a few hundred bytes. */
const MAX_POINTER_BYTES = 64 * 1024;

/** The keys of a `latest.json` the harness wrote, exactly. */
const POINTER_KEYS = ['dir', 'files', 'finishedAt', 'runId', 'verdict'];

async function kindOf(file: string): Promise<'none' | 'symlink' | 'dir' | 'file'> {
  try {
    const st = await lstat(file);
    return st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw err;
  }
}

function refuse(file: string, what: string, runDir: string): HarnessError {
  return new HarnessError(
    'E_REPORT_WRITE',
    `reports written to ${runDir}, but ${file} was left alone: it ${what}, not something the harness wrote; move it away or choose another report folder`,
  );
}

/** Marks a folder copied as `latest` as the harness's own. */
export async function markLatestCopy(dir: string, runId: string): Promise<void> {
  await writeFile(path.join(dir, LATEST_COPY_MARKER), `${JSON.stringify({ runId })}\n`, 'utf8');
}

/**
 * Throws unless `<baseDir>/latest` is absent or the harness's own: a symlink
 * to a plain folder name (what the harness makes) or a folder holding
 * {@link LATEST_COPY_MARKER}. `runDir` is named in the refusal, since the
 * reports are already there.
 */
export async function assertLatestReplaceable(baseDir: string, runDir: string): Promise<void> {
  const latest = path.join(baseDir, 'latest');
  const kind = await kindOf(latest);
  if (kind === 'none') return;
  if (kind === 'symlink') {
    const to = await readlink(latest);
    if (to !== '' && !/[\\/]/.test(to) && to !== '.' && to !== '..') return;
    throw refuse(latest, `is a symlink to ${JSON.stringify(to)}`, runDir);
  }
  if (kind === 'dir') {
    if ((await kindOf(path.join(latest, LATEST_COPY_MARKER))) === 'file') return;
    throw refuse(latest, 'is a folder', runDir);
  }
  throw refuse(latest, 'is a file', runDir);
}

/** Throws unless `<baseDir>/latest.json` is absent or a pointer the harness wrote (its exact shape). */
export async function assertPointerReplaceable(baseDir: string, runDir: string): Promise<void> {
  const file = path.join(baseDir, 'latest.json');
  const kind = await kindOf(file);
  if (kind === 'none') return;
  if (kind === 'file') {
    try {
      // A regular file of a pointer's size only: a FIFO named latest.json must not hold the run up.
      const v = JSON.parse((await readRegularFile(file, { maxBytes: MAX_POINTER_BYTES, what: 'pointer' })).toString('utf8')) as unknown;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).sort().join() === POINTER_KEYS.join()) return;
    } catch {
      // Unreadable or not JSON: not ours.
    }
  }
  throw refuse(file, kind === 'file' ? 'holds other content' : `is a ${kind === 'dir' ? 'folder' : 'symlink'}`, runDir);
}

/**
 * Throws when the run folder already holds anything besides the files this
 * run writes: a run id that collides with someone's folder must not overwrite it.
 */
export async function assertRunFolderFree(runDir: string, names: readonly string[]): Promise<void> {
  const kind = await kindOf(runDir);
  if (kind === 'none') return;
  if (kind !== 'dir') throw new HarnessError('E_REPORT_WRITE', `cannot write reports to ${runDir}: it exists and is not a folder`);
  const foreign = (await readdir(runDir)).filter((n) => !names.includes(n));
  if (foreign.length > 0) {
    throw new HarnessError(
      'E_REPORT_WRITE',
      `cannot write reports to ${runDir}: the folder already exists and holds files the harness did not write (${foreign.slice(0, 3).join(', ')})`,
    );
  }
}
