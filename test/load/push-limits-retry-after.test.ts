import { afterEach, describe, expect, it } from 'vitest';
import { mockLoadTarget } from '../../src/load/load-target.js';
import { runLoad } from '../../src/load/run-load.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import type { LoadRunResult } from '../../src/results/run-result.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A pushed search load against a mock whose window is `windowS`, the profile told the same. */
async function pushed(defects: string[], windowS: number, durationS: number): Promise<LoadRunResult> {
  mock = await createMock({ fixture: { agencies: generateAgencies(1, { limits: { read: 30, write: 6 } }) }, defects, windowS });
  const target = mockLoadTarget(mock);
  target.profile = { ...target.profile, limits: { ...target.profile.limits, window_s: windowS } };
  return runLoad({ target, search: { product: 'flights' }, durationS, connections: 2, pushLimits: true, settleMs: 100, thresholds: [] });
}

const retryAfterCases = (run: LoadRunResult) => run.cases.filter((c) => c.id.startsWith('load:retry-after:'));

describe('load --push-limits judges Retry-After only when it put one to the test', () => {
  it('a run shorter than the Retry-After says SKIP with why, never PASS, on a service whose Retry-After is short', async () => {
    const run = await pushed(['retry-after-short'], 60, 1.5);
    const cases = retryAfterCases(run);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c.verdict, c.message).not.toBe('PASS');
      if (c.verdict === 'SKIP') expect(c.message).toMatch(/no 429 to judge|no Retry-After could be judged/);
    }
    expect(cases.some((c) => /no Retry-After could be judged/.test(c.message))).toBe(true);
  }, 20_000);

  it('a run longer than the Retry-After probes it and catches one that is short', async () => {
    const run = await pushed(['retry-after-short'], 2, 3.5);
    const failed = retryAfterCases(run).filter((c) => c.verdict === 'FAIL');
    expect(failed.map((c) => c.message).join('\n')).toMatch(/too-short/);
  }, 20_000);

  it('the same run against a correct service passes the Retry-After it put to the test', async () => {
    const run = await pushed([], 2, 3.5);
    const cases = retryAfterCases(run);
    expect(cases.filter((c) => c.verdict === 'FAIL').map((c) => c.message)).toEqual([]);
    expect(cases.some((c) => c.verdict === 'PASS' && /put to the test/.test(c.message))).toBe(true);
  }, 20_000);
});
