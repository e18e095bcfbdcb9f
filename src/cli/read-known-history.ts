import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { KNOWN_HISTORY_RUNS, type CaseRecord, type KnownHistory } from '../known/case-history.js';
import { readRun, runFileIn } from '../report/compare/read-run.js';
import { RUN_ID_PATTERN } from '../results/run-id.js';
import type { CaseResult } from '../results/model.js';

/** A case failed in a run: FAIL or ERROR, excused as KNOWN, or failing on an expired entry. */
function failedIn(c: Pick<CaseResult, 'verdict' | 'known'>): boolean {
  return c.verdict === 'FAIL' || c.verdict === 'ERROR' || (c.verdict === 'KNOWN' && c.known?.was !== 'PASS');
}

/**
 * Reads the newest earlier runs of `folder` (run folders named by their run
 * id, newest first, `latest` and other links skipped, at most `last`) and
 * counts, for each of `ids`, the runs that ran it and those it failed in. A
 * run that cannot be read (malformed, too big, not a file) is passed over:
 * the history is advice, never a verdict. A folder that does not exist yet
 * has no history.
 */
export async function readKnownHistory(folder: string, ids: readonly string[], last = KNOWN_HISTORY_RUNS): Promise<KnownHistory> {
  const byId = new Map<string, CaseRecord>(ids.map((id) => [id, { ran: 0, failed: 0 }]));
  let names: string[];
  try {
    names = (await readdir(folder)).filter((n) => RUN_ID_PATTERN.test(n)).sort((a, b) => b.localeCompare(a));
  } catch {
    return { folder, runs: 0, byId };
  }
  let runs = 0;
  for (const name of names) {
    if (runs >= last) break;
    const dir = path.join(folder, name);
    try {
      if (!(await lstat(dir)).isDirectory() || (await runFileIn(dir)) === undefined) continue;
      const { result } = await readRun(dir, { histograms: false });
      const cases = 'cases' in result && Array.isArray(result.cases) ? (result.cases as CaseResult[]) : [];
      runs += 1;
      for (const c of cases) {
        const record = byId.get(c.id);
        if (!record) continue;
        record.ran += 1;
        if (failedIn(c)) record.failed += 1;
      }
    } catch {
      // Unreadable: passed over.
    }
  }
  return { folder, runs, byId };
}
