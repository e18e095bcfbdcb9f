import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREA_ORDER } from '../../src/checks/index.js';
import { createHarness } from '../../src/harness.js';
import { createMock, DEFAULT_FIXTURE, type RunningMock } from '../../src/mock/index.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';

/*
 * The whole suite against a target whose clock cannot be moved, in real time:
 * a mock with a 2 s rate-limit window, 5 s quotes and 200 ms webhook retries
 * keeps it short, and a fifth of the reference read limit lets a burst of
 * reads fit in the window. Checks run side by side on the mock's four agencies, and none
 * may see another's requests, bookings or webhooks.
 */
describe('the suite in real time (clock control none)', () => {
  let mock: RunningMock;

  beforeAll(async () => {
    const fixture = {
      agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: Math.ceil(a.limits.read / 5), write: Math.ceil(a.limits.write / 2) } })),
    };
    mock = await createMock({ fixture, windowS: 2, quoteLifetimeS: 5, webhookBaseMs: 200, webhookFactor: 3 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('passes every check and scenario against a correct service, with checks overlapping, within ±20% of its estimate', async () => {
    const agencies = mock.agencies.map((a) => agencyFromMock(a, { limits: false }));
    const harness = createHarness({
      profile: {
        base_url: mock.baseUrl,
        hotel_base_url: mock.hotelBaseUrl,
        clock: { control: 'none' },
        limits: { window_s: 2 },
        quotes: { lifetime_s: 5 },
        webhooks: { base_ms: 200, factor: 3 },
        agencies,
      },
    });
    const events: Array<RunEvent & { at: number }> = [];
    const t0 = performance.now();
    try {
      // The properties are left out: they are slow in real time.
      const only = [...AREA_ORDER, 'scenarios'];
      const result = await harness.run({ only, onEvent: (e) => events.push({ ...e, at: performance.now() }) });
      const wallMs = performance.now() - t0;
      const bad = result.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => `${c.id} ${c.verdict}: ${c.message}`);
      expect(bad).toEqual([]);
      // The scenarios lease only the agencies they pick (alpha, and delta for cars: the richest with cars open); they send nothing to the others.
      const keyOf = (id: string): string => agencies.find((a) => a.id === id)!.key_id;
      const scenarioKeys = new Set(
        result.exchanges.filter((x) => x.label?.startsWith('scenario:')).map((x) => /Credential=([^,\s]+)/.exec(x.request.headers.authorization ?? '')?.[1]),
      );
      expect([...scenarioKeys].sort()).toEqual([keyOf('agency-alpha'), keyOf('agency-delta')].sort());
      // checks ran side by side: at some instant two or more had started and not finished
      let open = 0;
      let most = 0;
      for (const e of events) {
        if (e.type === 'case-started') most = Math.max(most, ++open);
        if (e.type === 'case-finished' && e.result.kind === 'check') open -= 1;
      }
      expect(most).toBeGreaterThanOrEqual(2);
      const plan = events.find((e) => e.type === 'plan');
      expect(plan).toMatchObject({ mode: 'real-time' });
      const estimate = plan?.type === 'plan' ? plan.estimateMs! : 0;
      // The estimate plays the real schedule (the time before the plan included): within ±20% of the wall time.
      const figures = `wall ${Math.round(wallMs)} ms, estimate ${estimate} ms`;
      expect(wallMs, figures).toBeGreaterThan(estimate * 0.8);
      expect(wallMs, figures).toBeLessThan(estimate * 1.2);
    } finally {
      await harness.close();
    }
  }, 120_000);
});
