import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/results/model.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { sampleRun } from './fixtures/sample-run.js';

function kase(id: string, area: CaseResult['area'], wallStartedAt: number | undefined, durationMs: number): CaseResult {
  return {
    id,
    kind: 'check',
    title: id,
    area,
    clause: '',
    verdict: 'PASS',
    message: '',
    evidence: [],
    startedAt: 0,
    durationMs,
    ...(wallStartedAt !== undefined ? { wallStartedAt } : {}),
  };
}

const suiteTime = (xml: string, area: string): string | undefined => new RegExp(`<testsuite name="svc-harness\\.${area}"[^>]* time="([^"]+)"`).exec(xml)?.[1];

describe('the time of a JUnit suite', () => {
  it('is the wall span of its cases, not the sum of cases that ran side by side', () => {
    const t = 1_800_000_000_000;
    // Three rate-limit checks waiting out the same window at once, and one after them.
    const cases = [
      kase('RL-01', 'ratelimit', t, 10_000),
      kase('RL-02', 'ratelimit', t + 500, 9_000),
      kase('RL-03', 'ratelimit', t + 1_000, 10_000),
      kase('RL-04', 'ratelimit', t + 12_000, 1_000),
    ];
    const xml = renderJunit(sampleRun({ cases, durationMs: 13_500 }));
    expect(suiteTime(xml, 'ratelimit')).toBe('12.000');
    expect(/<testsuites [^>]*time="([^"]+)"/.exec(xml)?.[1]).toBe('13.500');
  });

  it('adds the durations of cases that noted no wall start, and never says more than the run took', () => {
    const cases = [
      kase('scenario:a', 'scenarios', undefined, 4_000),
      kase('scenario:b', 'scenarios', undefined, 5_000),
      kase('HT-01', 'hotel', undefined, 30_000),
    ];
    const xml = renderJunit(sampleRun({ cases, durationMs: 20_000 }));
    expect(suiteTime(xml, 'scenarios')).toBe('9.000');
    expect(suiteTime(xml, 'hotel')).toBe('20.000');
  });
});
