import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { readRun, runFileIn, type ReadRun } from '../compare/read-run.js';

/**
 * The runs under the given paths, oldest first: each path a run folder (or
 * its report.json), or a reports folder whose run folders are read (links
 * such as `latest` are skipped, so no run counts twice). A run seen twice by
 * id counts once; `last` keeps the newest N. A path that holds no run is
 * E_FILE_UNREADABLE naming it.
 */
export async function collectRuns(paths: readonly string[], last?: number): Promise<ReadRun[]> {
  const byId = new Map<string, ReadRun>();
  for (const p of paths) {
    let st;
    try {
      st = await lstat(p);
    } catch {
      throw new HarnessError('E_FILE_UNREADABLE', `cannot read ${p}: no such file or folder`);
    }
    const found: ReadRun[] = [];
    if (!st.isDirectory() || (await runFileIn(p)) !== undefined) found.push(await readRun(p));
    else {
      for (const name of (await readdir(p)).sort()) {
        const dir = path.join(p, name);
        const entry = await lstat(dir);
        if (!entry.isDirectory() || (await runFileIn(dir)) === undefined) continue;
        found.push(await readRun(dir));
      }
      if (found.length === 0) throw new HarnessError('E_FILE_UNREADABLE', `${p} holds no run folder (none with a report.json or selftest.json)`);
    }
    for (const r of found) if (!byId.has(r.result.runId)) byId.set(r.result.runId, r);
  }
  const runs = [...byId.values()].sort((a, b) => a.result.startedAt.localeCompare(b.result.startedAt) || a.result.runId.localeCompare(b.result.runId));
  return last !== undefined ? runs.slice(-last) : runs;
}
