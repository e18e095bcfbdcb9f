import { createHash } from 'node:crypto';
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile } from '../files/read-regular-file.js';
import { RUN_ID_PATTERN } from '../results/run-id.js';
import { readRunManifest, RUN_MANIFEST, type RunFiles } from './run-manifest.js';
import { latestTarget } from './write-reports.js';

/**
 * Where the harness writes, by name, for a run folder from before manifests:
 * report files at the top, and a certificate folder whose own
 * `certificate.json` lists its evidence with their SHA-256.
 */
export interface LegacyRunLayout {
  /** File names the harness writes at the top of a run folder (report.json, selftest.md…). */
  topFiles: readonly string[];
  /** The certificate folder's name, the names of its own files, and its evidence folder's name. */
  certificate: { dir: string; files: readonly string[]; listing: string; evidenceDir: string };
}

/** A run folder past the N newest that was not removed, since it holds files the harness did not write (or changed since). */
interface LeftRunFolder {
  folder: string;
  /** Paths inside the folder left in place, `/`-separated (a folder ends in `/`). */
  files: string[];
}

/** What pruning a reports folder did. */
interface PruneOutcome {
  /** Run folders removed, oldest first. */
  removed: string[];
  /** Run folders kept, newest first. */
  kept: string[];
  /** Run folders past the N newest, emptied of the harness's files but left, with what they still hold. */
  left: LeftRunFolder[];
  /** Entries left alone because the harness did not write them (a foreign name, a symlink, a file, a run-id folder holding nothing it writes). */
  foreign: string[];
}

/** Largest file hashed to decide whether it is still what the harness wrote; a larger one is left. */
const MAX_HASHED_BYTES = 256 * 1024 * 1024;

interface Entry {
  rel: string;
  kind: 'file' | 'dir' | 'other';
}

/** Every entry under `dir`, without following a symlink (a link is an entry, never a way out). */
async function walk(dir: string, rel = ''): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push({ rel: r, kind: 'dir' }, ...(await walk(dir, r)));
    else out.push({ rel: r, kind: e.isFile() ? 'file' : 'other' });
  }
  return out;
}

async function sha256Of(file: string): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readRegularFile(file, { maxBytes: MAX_HASHED_BYTES }))
      .digest('hex');
  } catch {
    return undefined;
  }
}

/** For a folder from before manifests: what the harness is known to write there, by name, and for evidence by the certificate's own hashes. */
async function legacyFiles(dir: string, layout: LegacyRunLayout): Promise<RunFiles | 'names'> {
  const known = new Map<string, string>();
  const c = layout.certificate;
  let listing: unknown;
  try {
    listing = JSON.parse((await readRegularFile(path.join(dir, c.dir, c.listing), { maxBytes: 16 * 1024 * 1024 })).toString('utf8'));
  } catch {
    listing = undefined;
  }
  const files = (listing as { files?: unknown } | undefined)?.files;
  for (const f of Array.isArray(files) ? files : []) {
    const { file, sha256 } = (f ?? {}) as { file?: unknown; sha256?: unknown };
    if (
      typeof file === 'string' &&
      typeof sha256 === 'string' &&
      file.startsWith(`${c.evidenceDir}/`) &&
      file.split('/').length === 2 &&
      file !== `${c.evidenceDir}/..`
    ) {
      known.set(`${c.dir}/${file}`, sha256);
    }
  }
  return known.size > 0 ? known : 'names';
}

/**
 * Removes from one run folder the files the harness wrote there, then the
 * folders left empty by it, and the folder itself when nothing else is left.
 * With a manifest, a file goes only when listed and unchanged (same
 * SHA-256). Without one (a folder from before manifests), only regular files
 * named as the harness names them: the report files at the top, the
 * certificate's own files in its folder, and the evidence its
 * certificate.json lists with a matching SHA-256. Returns what was left.
 */
async function clearRunFolder(dir: string, layout: LegacyRunLayout): Promise<string[]> {
  const manifest = await readRunManifest(dir);
  const evidence = manifest ? undefined : await legacyFiles(dir, layout);
  const c = layout.certificate;
  const entries = await walk(dir);
  const removed = new Set<string>();
  for (const e of entries) {
    if (e.kind !== 'file' || e.rel === RUN_MANIFEST) continue;
    let ours: boolean;
    if (manifest) {
      const hash = manifest.get(e.rel);
      ours = hash !== undefined && (await sha256Of(path.join(dir, e.rel))) === hash;
    } else {
      const [top, second, third] = e.rel.split('/');
      if (second === undefined) ours = layout.topFiles.includes(top!);
      else if (top === c.dir && third === undefined) ours = c.files.includes(second);
      else if (top === c.dir && second === c.evidenceDir && evidence !== 'names' && evidence!.has(e.rel))
        ours = (await sha256Of(path.join(dir, e.rel))) === evidence!.get(e.rel);
      else ours = false;
    }
    if (ours) {
      await rm(path.join(dir, e.rel));
      removed.add(e.rel);
    }
  }
  // Only folders that held a removed file: an empty folder someone made is theirs.
  const emptied = new Set<string>();
  for (const rel of removed) for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) emptied.add(d);
  for (const d of [...emptied].sort((a, b) => b.length - a.length)) {
    try {
      await rmdir(path.join(dir, d));
      removed.add(`${d}/`);
    } catch {
      // Not empty: it holds something the harness did not write.
    }
  }
  // A manifest that is not a regular file (a symlink) is not the harness's: it and what it points at are left, and the folder with them.
  const ownManifest = entries.some((e) => e.rel === RUN_MANIFEST && e.kind === 'file');
  const left = entries
    .map((e) => (e.kind === 'dir' ? `${e.rel}/` : e.rel))
    .filter((rel) => !(rel === RUN_MANIFEST && ownManifest) && !removed.has(rel))
    // A folder left is named by what it holds, unless it is empty.
    .filter((rel, _i, all) => !rel.endsWith('/') || !all.some((o) => o !== rel && o.startsWith(rel)));
  if (left.length === 0) {
    if (ownManifest) await rm(path.join(dir, RUN_MANIFEST));
    await rmdir(dir);
  }
  return left.sort();
}

/** True when `dir` is a real folder (not a symlink) named by a run id that holds a manifest or a file the harness names so. */
async function isRunFolder(dir: string, layout: LegacyRunLayout): Promise<boolean> {
  if (!RUN_ID_PATTERN.test(path.basename(dir))) return false;
  const st = await lstat(dir).catch(() => undefined);
  if (!st?.isDirectory() || st.isSymbolicLink()) return false;
  const names = await readdir(dir);
  return names.includes(RUN_MANIFEST) || names.some((n) => layout.topFiles.includes(n) || n === layout.certificate.dir);
}

/**
 * Prunes the run folders in `baseDir` beyond the `keep` newest (run ids sort
 * by start time); the folder `latest` points at is always kept. From each
 * older folder it removes only the files the harness wrote (its manifest,
 * see {@link RUN_MANIFEST}; for a folder from before manifests, see
 * {@link LegacyRunLayout}), and the folder itself only once nothing else is
 * in it. A folder holding anything else is left, and said so with its files.
 */
export async function pruneRunFolders(baseDir: string, keep: number, layout: LegacyRunLayout): Promise<PruneOutcome> {
  const names = (await readdir(baseDir))
    .filter((n) => n !== 'latest' && n !== 'latest.json')
    .sort()
    .reverse();
  const own: string[] = [];
  const foreign: string[] = [];
  for (const n of names) ((await isRunFolder(path.join(baseDir, n), layout)) ? own : foreign).push(n);
  const latest = await latestTarget(baseDir);
  const kept = own.filter((n, i) => i < keep || n === latest);
  const removed: string[] = [];
  const left: LeftRunFolder[] = [];
  for (const n of own.filter((n) => !kept.includes(n)).reverse()) {
    const files = await clearRunFolder(path.join(baseDir, n), layout);
    if (files.length === 0) removed.push(n);
    else left.push({ folder: n, files });
  }
  return { removed, kept, left, foreign };
}
