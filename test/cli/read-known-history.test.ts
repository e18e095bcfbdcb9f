import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeKnown } from '../../src/known/apply-known-issues.js';
import { KNOWN_HISTORY_RUNS } from '../../src/known/case-history.js';
import { readKnownHistory } from '../../src/cli/read-known-history.js';
import type { CaseResult } from '../../src/results/model.js';
import { renderJson } from '../../src/report/render-json.js';
import { sampleRun } from '../report/fixtures/sample-run.js';

/** A reports folder whose run folders hold the sample run with RL-01 given each verdict, oldest first. */
async function reportsWith(verdicts: Array<CaseResult['verdict']>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'svc-history-'));
  for (const [i, verdict] of verdicts.entries()) {
    const run = sampleRun();
    const runId = `20261128-10${String(i).padStart(2, '0')}00-ab${String(i).padStart(2, '0')}`;
    const cases = run.cases.map((c) => (c.id === 'RL-01' ? { ...c, verdict } : c));
    await mkdir(join(folder, runId));
    await writeFile(join(folder, runId, 'report.json'), renderJson({ ...run, runId, cases }));
  }
  return folder;
}

const passing: CaseResult = {
  id: 'RL-01',
  kind: 'check',
  title: 'rolling window',
  area: 'ratelimit',
  clause: 'SPEC §8',
  verdict: 'PASS',
  message: 'held',
  evidence: [],
  startedAt: 0,
  durationMs: 1,
};
const issues = [{ id: 'RL-01', reason: 'TRV-1 flaky window', until: '2099-12-31' }];

describe('known issues and the history of the reports folder', () => {
  it('counts, per listed case, the newest earlier runs that ran it and those it failed in', async () => {
    const folder = await reportsWith(['FAIL', 'PASS', 'KNOWN', 'PASS']);
    await symlink(join(folder, '20261128-100300-ab03'), join(folder, 'latest'));
    const h = await readKnownHistory(folder, ['RL-01', 'AU-99']);
    expect(h.runs).toBe(4);
    expect(h.byId.get('RL-01')).toEqual({ ran: 4, failed: 2 });
    expect(h.byId.get('AU-99')).toEqual({ ran: 0, failed: 0 });
  });

  it(`reads only the newest ${KNOWN_HISTORY_RUNS} runs, passes over one it cannot read, and has none for a folder not made yet`, async () => {
    const folder = await reportsWith(['FAIL', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS']);
    await mkdir(join(folder, '20261128-110000-zz99'));
    await writeFile(join(folder, '20261128-110000-zz99', 'report.json'), '{"not": "a report"');
    const h = await readKnownHistory(folder, ['RL-01']);
    expect(h.runs).toBe(KNOWN_HISTORY_RUNS);
    expect(h.byId.get('RL-01')).toEqual({ ran: KNOWN_HISTORY_RUNS, failed: 0 });
    expect((await readKnownHistory(join(folder, 'nowhere'), ['RL-01'])).runs).toBe(0);
  });

  it('keeps a passing case that failed there a PASS saying so; one clean there is a WARN to remove it', async () => {
    const flaky = await readKnownHistory(await reportsWith(['PASS', 'FAIL', 'PASS']), ['RL-01']);
    const kept = judgeKnown(passing, issues, '2026-11-28', flaky);
    expect(kept).toMatchObject({ verdict: 'PASS', known: { state: 'intermittent', history: { ran: 3, failed: 1 } } });
    expect(kept.message).toContain('passed this run but failed in 1 of the 3 earlier run(s)');
    const clean = await readKnownHistory(await reportsWith(['PASS', 'PASS']), ['RL-01']);
    expect(judgeKnown(passing, issues, '2026-11-28', clean)).toMatchObject({ verdict: 'WARN', known: { state: 'stale' } });
    expect(judgeKnown(passing, issues, '2026-11-28')).toMatchObject({ verdict: 'WARN', known: { state: 'stale' } });
  });
});
