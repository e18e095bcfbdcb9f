import { describe, expect, test } from 'vitest';
import type { CaseResult, Verdict } from '../../src/results/model.js';
import type { SuiteResult } from '../../src/results/run-result.js';
import { coverageOf, judgeClean, judgeDefect, unexplained } from '../../src/selftest/judge-selftest.js';

type Run = Pick<SuiteResult, 'cases' | 'exchanges' | 'durationMs' | 'seed'>;

function kase(id: string, verdict: Verdict, evidence: string[] = []): CaseResult {
  return {
    id,
    kind: id.includes(':') ? 'scenario' : 'check',
    title: id,
    area: 'auth',
    clause: '',
    verdict,
    message: `${id} ${verdict}`,
    evidence,
    startedAt: 0,
    durationMs: 1,
  };
}

function run(cases: CaseResult[], exchangeIds = ['x-1', 'x-2']): Run {
  return {
    cases,
    exchanges: exchangeIds.map((id) => ({ id, request: { method: 'GET', url: 'http://127.0.0.1/v1/account', headers: {} } })) as SuiteResult['exchanges'],
    durationMs: 10,
    seed: 7,
  };
}

const spec = { defect: 'd', description: 'desc', promise: 'p', caughtBy: ['AU-03', 'AU-06'] };

describe('judgeDefect', () => {
  test('an expected check failing with evidence of the run catches the defect; others are collateral', () => {
    const o = judgeDefect(spec, run([kase('AU-01', 'PASS'), kase('AU-03', 'FAIL', ['x-1']), kase('ER-01', 'FAIL', ['x-2']), kase('scenario:s', 'ERROR')]));
    expect(o.caught).toBe(true);
    expect(o.caughtBy).toEqual(['AU-03']);
    expect(o.collateral.map((c) => c.id)).toEqual(['ER-01', 'scenario:s']);
  });

  test('a defect caught only by collateral failures is not caught', () => {
    const o = judgeDefect(spec, run([kase('AU-03', 'PASS'), kase('ER-01', 'FAIL', ['x-1']), kase('AU-05', 'FAIL', ['x-2'])]));
    expect(o.caught).toBe(false);
    expect(o.caughtBy).toEqual([]);
    expect(o.collateral.map((c) => c.id)).toEqual(['ER-01', 'AU-05']);
  });

  test('an expected failure without evidence, or naming exchanges the run does not have, is not a catch', () => {
    const none = judgeDefect(spec, run([kase('AU-03', 'FAIL', [])]));
    expect(none.caught).toBe(false);
    expect(none.unproven.map((u) => u.id)).toEqual(['AU-03']);
    const ghost = judgeDefect(spec, run([kase('AU-03', 'FAIL', ['x-1', 'x-404'])]));
    expect(ghost.caught).toBe(false);
    expect(ghost.unproven[0]?.missingEvidence).toEqual(['x-404']);
  });

  test('an expected check that errored (crashed) is not a catch even with evidence', () => {
    const o = judgeDefect(spec, run([kase('AU-03', 'ERROR', ['x-1'])]));
    expect(o.caught).toBe(false);
    expect(o.unproven.map((u) => u.verdict)).toEqual(['ERROR']);
  });

  test('a skipped or warning expected check does not catch', () => {
    expect(judgeDefect(spec, run([kase('AU-03', 'SKIP'), kase('AU-06', 'WARN', ['x-1'])])).caught).toBe(false);
  });
});

describe('judgeClean', () => {
  test('every FAIL or ERROR against the clean mock is a false alarm; WARN and SKIP are not', () => {
    const o = judgeClean(
      0,
      run([kase('AU-01', 'PASS'), kase('RL-01', 'WARN'), kase('HT-01', 'SKIP'), kase('WH-03', 'FAIL', ['x-1']), kase('property:p', 'ERROR')]),
    );
    expect(o.falseAlarms.map((f) => f.id)).toEqual(['WH-03', 'property:p']);
    expect(judgeClean(1, run([kase('AU-01', 'PASS')])).falseAlarms).toEqual([]);
  });
});

describe('coverageOf', () => {
  test('lists, per check, the defects only it catches, and flags unexplained checks that catch none alone', () => {
    const a = judgeDefect({ ...spec, defect: 'a', caughtBy: ['AU-03'] }, run([kase('AU-03', 'FAIL', ['x-1'])]));
    const b = judgeDefect({ ...spec, defect: 'b', caughtBy: ['AU-03', 'AU-06'] }, run([kase('AU-03', 'FAIL', ['x-1']), kase('AU-06', 'FAIL', ['x-2'])]));
    const cov = coverageOf([a, b], ['AU-03', 'AU-06', 'AU-01', 'HT-04'], { 'HT-04': 'subsumed' });
    expect(cov).toEqual([
      { check: 'AU-03', catches: ['a', 'b'], only: ['a'] },
      { check: 'AU-06', catches: ['b'], only: [] },
      { check: 'AU-01', catches: [], only: [] },
      { check: 'HT-04', catches: [], only: [], explanation: 'subsumed' },
    ]);
    expect(unexplained(cov)).toEqual(['AU-06', 'AU-01']);
  });
});
