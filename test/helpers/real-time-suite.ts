import { AREA_ORDER } from '../../src/checks/index.js';
import { createHarness } from '../../src/harness.js';
import { createMock, DEFAULT_FIXTURE, type RunningMock } from '../../src/mock/index.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';
import type { AgencyDef } from '../../src/profile/types.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import type { SuiteResult } from '../../src/results/run-result.js';

/**
 * The whole suite against a target whose clock cannot be moved, in real time:
 * a mock with a 2 s rate-limit window, 5 s quotes and 200 ms webhook retries
 * keeps it short, and a fifth of the reference read limit lets a burst of
 * reads fit in the window. Shared by `test/runner/real-time-suite.test.ts`
 * (what the run does) and `bench/real-time-estimate.bench.ts` (how close its
 * wall time comes to its estimate).
 */
export function startRealTimeMock(): Promise<RunningMock> {
  const fixture = {
    agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: Math.ceil(a.limits.read / 5), write: Math.ceil(a.limits.write / 2) } })),
  };
  return createMock({ fixture, windowS: 2, quoteLifetimeS: 5, webhookBaseMs: 200, webhookFactor: 3 });
}

/** One run of the suite against that mock, every event stamped with `performance.now()`. */
export interface RealTimeRun {
  result: SuiteResult;
  events: Array<RunEvent & { at: number }>;
  agencies: AgencyDef[];
  wallMs: number;
}

/** A profile of `mock` without clock control, with the short window, quotes and webhook schedule the real-time tests start the mock with. */
export function realTimeTarget(mock: RunningMock) {
  return {
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' as const },
    limits: { window_s: 2 },
    quotes: { lifetime_s: 5 },
    webhooks: { base_ms: 200, factor: 3 },
    agencies: mock.agencies.map((a) => agencyFromMock(a, { limits: false })),
  };
}

/** Runs every check and the scenarios (the properties are slow in real time), or the cases `only` names, with clock control none. */
export async function runRealTimeSuite(mock: RunningMock, only: readonly string[] = [...AREA_ORDER, 'scenarios']): Promise<RealTimeRun> {
  const profile = realTimeTarget(mock);
  const agencies = profile.agencies;
  const harness = createHarness({ profile });
  const events: RealTimeRun['events'] = [];
  const t0 = performance.now();
  try {
    const result = await harness.run({ only: [...only], onEvent: (e) => events.push({ ...e, at: performance.now() }) });
    return { result, events, agencies, wallMs: performance.now() - t0 };
  } finally {
    await harness.close();
  }
}
