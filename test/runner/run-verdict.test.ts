import { describe, expect, it } from 'vitest';
import type { CaseResult, Verdict } from '../../src/results/model.js';
import { suiteVerdict } from '../../src/runner/run-verdict.js';

const c = (id: string, verdict: Verdict, message = `${id} ${verdict}`): CaseResult => ({
  id,
  kind: 'check',
  title: id,
  area: 'auth',
  clause: '',
  verdict,
  message,
  evidence: [],
  startedAt: 0,
  durationMs: 0,
});

describe('suiteVerdict', () => {
  it('passes a run in which something passed and nothing failed', () => {
    expect(suiteVerdict([c('AU-01', 'PASS'), c('ID-01', 'SKIP'), c('ID-02', 'WARN')], 'AU-01')).toEqual({ verdict: 'PASS' });
  });

  it('fails a run with a FAIL or an ERROR', () => {
    expect(suiteVerdict([c('AU-01', 'PASS'), c('ID-01', 'FAIL')], 'AU-01').verdict).toBe('FAIL');
    expect(suiteVerdict([c('ID-01', 'ERROR'), c('ID-02', 'SKIP')], 'AU-01').verdict).toBe('FAIL');
  });

  it('is INCONCLUSIVE when no case passed, naming a skip reason', () => {
    const v = suiteVerdict([c('ID-01', 'SKIP', 'the account answered 401'), c('ID-02', 'SKIP')], 'AU-01');
    expect(v.verdict).toBe('INCONCLUSIVE');
    expect(v.reason).toContain('no case passed');
    expect(v.reason).toContain('ID-01: the account answered 401');
    expect(suiteVerdict([], 'AU-01').verdict).toBe('INCONCLUSIVE');
    expect(suiteVerdict([c('ID-01', 'WARN')], 'AU-01').verdict).toBe('INCONCLUSIVE');
  });

  it('is INCONCLUSIVE when the baseline AU-01 fails or errors, whatever else passed', () => {
    const v = suiteVerdict([c('AU-01', 'FAIL', 'a correctly signed request got 401'), c('WL-05', 'PASS')], 'AU-01');
    expect(v.verdict).toBe('INCONCLUSIVE');
    expect(v.reason).toContain('AU-01');
    expect(v.reason).toContain('got 401');
    expect(suiteVerdict([c('AU-01', 'ERROR')], 'AU-01').verdict).toBe('INCONCLUSIVE');
  });
});
