import { afterEach, describe, expect, it } from 'vitest';
import { mockLoadTarget } from '../../src/load/load-target.js';
import { exitCodeOf, loadOutcome } from '../../src/cli/exit-codes.js';
import { runLoad } from '../../src/load/run-load.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { loadScenarios } from '../../src/scenario/load-scenario.js';
import { PAST_THE_LIMITS } from './_past-the-limits.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function failedKinds(
  defect: string,
  beforeRun?: (m: RunningMock) => Promise<void>,
  bound: { durationS: number; maxRequests?: number } = PAST_THE_LIMITS,
): Promise<string[]> {
  mock = await createMock({ fixture: { agencies: generateAgencies(2, { limits: { read: 40, write: 6 } }) } });
  mock.defects.enable([defect]);
  await beforeRun?.(mock);
  const run = await runLoad({
    target: mockLoadTarget(mock),
    scenarios: await loadScenarios({}),
    ...bound,
    connections: 4,
    pushLimits: false,
    settleMs: 200,
    thresholds: [],
  });
  expect(exitCodeOf(loadOutcome(run))).toBe(1);
  return [...new Set(run.cases.filter((c) => c.verdict === 'FAIL').map((c) => c.id.split(':')[1]!))];
}

describe('runLoad verdicts fail against a defective mock', () => {
  it('limit-plus-one: a window admitted more than the limit', async () => {
    expect(await failedKinds('limit-plus-one')).toContain('window-limit');
  }, 20_000);

  it('fixed-window: across a minute boundary the fixed window admits twice the limit within 60 s', async () => {
    const kinds = await failedKinds(
      'fixed-window',
      async (m) => {
        // Put the mock's clock 0.6 s before a minute boundary, so the load spans it.
        const now = m.clock.now();
        const next = Math.ceil(now / 60_000) * 60_000;
        await m.advance((next - now < 1500 ? next + 60_000 : next) - now - 600);
      },
      { durationS: 1.5 },
    );
    expect(kinds).toContain('window-limit');
  }, 20_000);

  it('ratelimit-remaining-wrong and ratelimit-headers-missing: the rate-limit headers fail under load, as RL-07 fails them in the suite', async () => {
    expect(await failedKinds('ratelimit-remaining-wrong')).toEqual(['headers']);
    await mock?.close();
    // Without headers the load cannot read the buckets' start: only the headers' verdict fails.
    expect(await failedKinds('ratelimit-headers-missing')).toEqual(['headers']);
  }, 30_000);

  it('ratelimit-charges: a booking answered 429 still debited the wallet', async () => {
    expect(await failedKinds('ratelimit-charges')).toEqual(['wallet']);
  }, 20_000);
});
