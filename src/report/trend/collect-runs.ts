import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { newRunId, RUN_ID_PATTERN } from '../../results/run-id.js';
import { readRun, runFileIn } from '../compare/read-run.js';
import { trendPoints, type TrendPoint } from './trend-points.js';

/** A run file found, not yet read, with the key that orders it by start. */
interface Candidate {
  input: string;
  /** The run id its folder is named by (run ids sort by start time); for a folder named otherwise, one made of its file's modification time. */
  key: string;
}

async function candidate(input: string, runFile: string): Promise<Candidate> {
  const folder = path.basename(path.dirname(runFile));
  if (RUN_ID_PATTERN.test(folder)) return { input, key: folder };
  let mtime = new Date(0);
  try {
    mtime = (await stat(runFile)).mtime;
  } catch {
    // Unreadable: its read names why.
  }
  return { input, key: newRunId(mtime, '0000') };
}

/** The run files under one path: the path itself when it is a run (folder or file), else the run folders in it (links such as `latest` skipped). */
async function candidatesIn(p: string): Promise<Candidate[]> {
  let st;
  try {
    st = await lstat(p);
  } catch {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read ${p}: no such file or folder`);
  }
  if (!st.isDirectory()) return [await candidate(p, p)];
  const own = await runFileIn(p);
  if (own !== undefined) return [await candidate(p, own)];
  const found: Candidate[] = [];
  for (const name of (await readdir(p)).sort()) {
    const dir = path.join(p, name);
    const entry = await lstat(dir);
    if (!entry.isDirectory()) continue;
    const file = await runFileIn(dir);
    if (file !== undefined) found.push(await candidate(dir, file));
  }
  if (found.length === 0) throw new HarnessError('E_FILE_UNREADABLE', `${p} holds no run folder (none with a report.json or selftest.json)`);
  return found;
}

/**
 * The trend's figures of the runs under the given paths, oldest first: each
 * path a run folder (or its report.json), or a reports folder whose run
 * folders are read. A run seen twice by id counts once. Runs are chosen
 * before any is read: with `last`, the newest N by the run id their folder
 * is named by, read newest first until N distinct runs are found. Each run
 * is read, validated and reduced to its point (verdict counts, load figures)
 * before the next is read, so memory holds one report at a time whatever the
 * number of runs. A path that holds no run is E_FILE_UNREADABLE naming it.
 */
export async function collectTrendPoints(paths: readonly string[], last?: number): Promise<TrendPoint[]> {
  const candidates: Candidate[] = [];
  for (const p of paths) candidates.push(...(await candidatesIn(p)));
  const seen = new Set<string>();
  const points: TrendPoint[] = [];
  const order =
    last !== undefined
      ? candidates.map((c, i) => ({ c, i })).sort((a, b) => b.c.key.localeCompare(a.c.key) || b.i - a.i)
      : candidates.map((c, i) => ({ c, i }));
  for (const { c } of order) {
    if (last !== undefined && points.length >= last) break;
    const [point] = trendPoints([await readRun(c.input, { histograms: false })]);
    if (point === undefined || seen.has(point.runId)) continue;
    seen.add(point.runId);
    points.push(point);
  }
  return points.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.runId.localeCompare(b.runId));
}
