import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyApis } from '../../../src/api/agency-apis.js';
import { checkContext, type RunScope } from '../../../src/checks/check-context.js';
import { WRITE_EPISODE } from '../../../src/checks/_internal/rl-episode.js';
import { ratelimitChecks } from '../../../src/checks/ratelimit/index.js';
import { createRunCache } from '../../../src/checks/run-cache.js';
import { MemoryRecorder } from '../../../src/client/exchange.js';
import { createMock, type RunningMock } from '../../../src/mock/index.js';
import { generateAgencies } from '../../../src/mock/fixture/generate-agencies.js';
import { DEFAULT_PROFILE } from '../../../src/profile/defaults.js';
import type { Profile } from '../../../src/profile/types.js';
import { RealClockDriver } from '../../../src/clock/real-clock-driver.js';
import type { ClockDriver } from '../../../src/clock/clock-driver.js';
import { resolvedAgency } from '../../helpers/mock-agencies.js';

/**
 * The shared fill in real time (the clock cannot be moved), against a mock
 * whose window is 3 s: the probes after the fill run alongside the requests
 * made while the bucket is full, and every member judges the one fill.
 */
const WINDOW_S = 3;
let mock: RunningMock;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  mock = await createMock({ fixture: { agencies: generateAgencies(2, { limits: { read: 40, write: 6 } }) }, windowS: WINDOW_S });
});
afterAll(async () => {
  for (const c of closers) await c();
  await mock?.close();
});

async function realTimeRun(defects: string[]) {
  mock.defects.disable(mock.defects.list());
  mock.defects.enable(defects);
  await mock.reset();
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' },
    limits: { ...DEFAULT_PROFILE.limits, window_s: WINDOW_S },
    agencies: mock.agencies.slice(0, 2).map((a) => ({ id: a.agency_id, key_id: a.key_id, secret: a.secret })),
  };
  const clock: ClockDriver = new RealClockDriver();
  const recorder = new MemoryRecorder();
  const agencies = mock.agencies.slice(0, 2).map((a) => resolvedAgency(a, { limits: false }));
  const apis = agencyApis({ profile, agencies, recorder, now: clock.now, onRateLimit: () => undefined });
  closers.push(apis.close);
  let n = 0;
  const scope: RunScope = {
    runCache: createRunCache(),
    profile,
    agencies,
    api: apis.api,
    hotel: apis.hotel,
    clock,
    receiver: undefined,
    recorder,
    exchanges: () => recorder.exchanges,
    timeline: { rateLimit: () => undefined, webhook: () => undefined },
    log: () => undefined,
    seed: 1,
    unique: (prefix) => `${prefix}-rt-${process.pid}-${++n}-${Date.now().toString(36)}`,
  };
  const outcomes: Record<string, { verdict: string; message: string }> = {};
  const t0 = Date.now();
  for (const c of ratelimitChecks.filter((x) => x.episode === WRITE_EPISODE)) outcomes[c.id] = await c.run(checkContext(scope, c.id));
  return { outcomes, elapsedMs: Date.now() - t0 };
}

describe('the shared rate-limit fill in real time', () => {
  it('passes every member on a correct service in one window and a few seconds', async () => {
    const { outcomes, elapsedMs } = await realTimeRun([]);
    for (const [id, o] of Object.entries(outcomes)) expect(o.verdict, `${id}: ${o.message}`).toBe('PASS');
    expect(elapsedMs).toBeLessThan(4 * WINDOW_S * 1000);
  }, 30_000);

  it.each([
    ['retry-after-short', 'RL-03'],
    ['refusals-counted', 'RL-08'],
    ['limit-plus-one', 'RL-01'],
  ])(
    '%s fails %s',
    async (defect, id) => {
      const { outcomes } = await realTimeRun([defect]);
      expect(outcomes[id]!.verdict, outcomes[id]!.message).toBe('FAIL');
    },
    30_000,
  );
});
