import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { RUN_ID_PATTERN } from './run-id.js';
import { latestTarget } from './write-reports.js';

/** What pruning a reports folder did. */
export interface PruneOutcome {
  /** Run folders removed, oldest first. */
  removed: string[];
  /** Run folders kept, newest first. */
  kept: string[];
  /** Entries left alone because the harness did not write them (a foreign name, a symlink, or a folder holding other files). */
  foreign: string[];
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    const st = await lstat(p);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * True when `dir` is a run folder the harness wrote: named by a run id, a
 * real folder (never a symlink), holding only entries among `ownNames` (the
 * report files and the certificate folder), at least one of them.
 */
export async function isOwnRunFolder(dir: string, ownNames: readonly string[]): Promise<boolean> {
  if (!RUN_ID_PATTERN.test(path.basename(dir)) || !(await isDirectory(dir))) return false;
  const entries = await readdir(dir);
  return entries.length > 0 && entries.every((e) => ownNames.includes(e));
}

/**
 * Removes the harness's run folders in `baseDir` beyond the `keep` newest
 * (run ids sort by start time). The folder `latest` points at is always
 * kept, and nothing the harness did not write is touched.
 */
export async function pruneRunFolders(baseDir: string, keep: number, ownNames: readonly string[]): Promise<PruneOutcome> {
  const names = (await readdir(baseDir)).filter((n) => n !== 'latest' && n !== 'latest.json').sort().reverse();
  const own: string[] = [];
  const foreign: string[] = [];
  for (const n of names) ((await isOwnRunFolder(path.join(baseDir, n), ownNames)) ? own : foreign).push(n);
  const latest = await latestTarget(baseDir);
  const kept = own.filter((n, i) => i < keep || n === latest);
  const removed = own.filter((n) => !kept.includes(n)).reverse();
  for (const n of removed) await rm(path.join(baseDir, n), { recursive: true, force: true });
  return { removed, kept, foreign };
}
