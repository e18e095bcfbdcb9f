import { createHash, randomBytes } from 'node:crypto';
import { lstat, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile } from '../files/read-regular-file.js';

/**
 * The file in each run folder that lists what the harness wrote there, with
 * the SHA-256 of each file's content: `report prune` removes only what it
 * lists, unchanged, and never a file someone else put beside it.
 */
export const RUN_MANIFEST = '.svc-harness-files.json';

const SCHEMA = 'svc-harness/run-files@1';
/** Largest manifest read: a certificate of many tests lists a few hundred files. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;

/** What a run folder's manifest says: relative path (`/`-separated) → SHA-256 of the content the harness wrote. */
export type RunFiles = Map<string, string>;

/** True for a relative path inside the folder: no `..`, no absolute path, no backslash, no empty part. */
function isInsidePath(rel: string): boolean {
  return rel !== '' && !rel.startsWith('/') && !rel.includes('\\') && rel.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The manifest of `runDir`, or undefined when there is none or it is not one
 * the harness wrote (another shape, a path leaving the folder): such a folder
 * is treated as one from before manifests, conservatively.
 */
export async function readRunManifest(runDir: string): Promise<RunFiles | undefined> {
  let doc: unknown;
  try {
    // The harness writes its manifest as a regular file: a link named so is someone else's, and is not followed.
    if (!(await lstat(path.join(runDir, RUN_MANIFEST))).isFile()) return undefined;
    doc = JSON.parse((await readRegularFile(path.join(runDir, RUN_MANIFEST), { maxBytes: MAX_MANIFEST_BYTES, what: 'run manifest' })).toString('utf8'));
  } catch {
    return undefined;
  }
  const files = (doc as { schema?: unknown; files?: unknown } | null)?.files;
  if ((doc as { schema?: unknown } | null)?.schema !== SCHEMA || typeof files !== 'object' || files === null || Array.isArray(files)) return undefined;
  const out: RunFiles = new Map();
  for (const [rel, hash] of Object.entries(files)) {
    if (!isInsidePath(rel) || rel === RUN_MANIFEST || typeof hash !== 'string' || !SHA256.test(hash)) return undefined;
    out.set(rel, hash);
  }
  return out;
}

/**
 * Adds files the harness has just written in `runDir` (absolute paths inside
 * it) to the folder's manifest, with the SHA-256 of their content as it is on
 * disk now. Every writer of a run folder calls it: the reports, the
 * certificate. The manifest is replaced atomically.
 */
export async function recordRunFiles(runDir: string, files: readonly string[]): Promise<void> {
  const entries = (await readRunManifest(runDir)) ?? new Map<string, string>();
  for (const file of files) {
    const rel = path.relative(runDir, file).split(path.sep).join('/');
    if (!isInsidePath(rel)) continue;
    entries.set(rel, sha256Hex(await readFile(file)));
  }
  const content = `${JSON.stringify({ schema: SCHEMA, files: Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b))) }, null, 2)}\n`;
  const target = path.join(runDir, RUN_MANIFEST);
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
