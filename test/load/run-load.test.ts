import { afterEach, describe, expect, it } from 'vitest';
import { mockLoadTarget } from '../../src/load/load-target.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { exitCodeOf, loadOutcome } from '../../src/cli/exit-codes.js';
import { runLoad } from '../../src/load/run-load.js';
import { parseThreshold } from '../../src/load/gate/gates.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { loadScenarios } from '../../src/scenario/load-scenario.js';
import { PAST_THE_LIMITS } from './_past-the-limits.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function start(defects: string[] = []): Promise<RunningMock> {
  mock = await createMock({ fixture: { agencies: generateAgencies(3, { limits: { read: 40, write: 6 } }) }, defects });
  return mock;
}

describe('runLoad against the embedded mock', () => {
  it('replays the shipped scenarios for several agencies: every verdict passes, figures and gates are there', async () => {
    const m = await start();
    const scenarios = await loadScenarios({});
    const run = await runLoad({
      target: mockLoadTarget(m),
      scenarios,
      ...PAST_THE_LIMITS,
      connections: 6,
      pushLimits: false,
      settleMs: 200,
      thresholds: [parseThreshold('rps>=1'), parseThreshold('rps>=100000000')],
    });
    const load = run.load as LoadResult;
    expect(load.modes).toEqual(['scenarios']);
    expect(load.totals.requests).toBeGreaterThan(30);
    expect(load.totals.rateLimited).toBeGreaterThan(0);
    expect(load.operations.search!.count).toBeGreaterThan(0);
    expect(load.operations.book!.statuses['201']).toBeGreaterThan(0);
    expect(load.operations.all!.latency.p99).toBeGreaterThan(0);
    expect(load.series.length).toBeGreaterThan(0);
    const checks = run.cases.filter((c) => c.kind === 'check');
    // 3 agencies × 2 buckets × (window limit, early throttle, Retry-After, headers), and a wallet each.
    expect(checks).toHaveLength(3 * 2 * 4 + 3);
    expect(checks.filter((c) => c.id.startsWith('load:headers:')).map((c) => c.verdict)).toEqual(Array(6).fill('PASS'));
    expect(checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.message)).toEqual([]);
    expect(run.cases.filter((c) => c.kind === 'gate').map((c) => c.verdict)).toEqual(['PASS', 'FAIL']);
    expect(exitCodeOf(loadOutcome(run))).toBe(99);
  }, 20_000);

  it('the fast signed search path is admitted by the mock (no 401) and paced pushes judge fine', async () => {
    const m = await start();
    const run = await runLoad({
      target: mockLoadTarget(m),
      search: { product: 'flights' },
      durationS: 1.5,
      connections: 3,
      pushLimits: true,
      settleMs: 200,
      thresholds: [],
    });
    const load = run.load as LoadResult;
    expect(load.modes).toEqual(['search', 'push-limits']);
    expect(load.operations.search!.statuses['401']).toBeUndefined();
    expect(load.operations.search!.ok).toBeGreaterThan(0);
    expect(load.operations['push.book']!.count).toBeGreaterThan(0);
    expect(run.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.message)).toEqual([]);
  }, 20_000);
});

describe('runLoad with agencies whose contracts differ', () => {
  it('sends each agency only the journeys its open products allow: no search of a closed product', async () => {
    // One agency with flights alone beside one with every product, as the reference fixture's beta and gamma.
    const [narrow, wide] = generateAgencies(2, { limits: { read: 400, write: 40 } });
    mock = await createMock({ fixture: { agencies: [{ ...narrow!, products: ['flights'] }, wide!] } });
    const scenarios = await loadScenarios({});
    expect(new Set(scenarios.map((s) => s.product ?? 'flights')).size).toBeGreaterThan(1);
    const run = await runLoad({
      target: mockLoadTarget(mock, { onlyGenerated: true }),
      scenarios,
      ...PAST_THE_LIMITS,
      connections: 8,
      pushLimits: false,
      settleMs: 200,
      thresholds: [],
    });
    const load = run.load as LoadResult;
    expect(load.operations.search!.count).toBeGreaterThan(0);
    expect(load.operations.all!.statuses['403']).toBeUndefined();
  }, 20_000);
});
