import { describe, expect, it, vi } from 'vitest';
import { ALL_CHECKS } from '../../src/checks/index.js';
import { DEFAULT_FIXTURE } from '../../src/mock/fixture/default-fixture.js';
import { PRODUCTS } from '../../src/mock/fixture/fixture-types.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';
import { resolveAgencies } from '../../src/profile/resolve-secrets.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { loadSuiteParts } from '../../src/runner/suite-parts.js';
import { planSuite } from '../../src/runner/suite-plan.js';

/*
 * The plan of the whole suite, scenarios and properties included, in real
 * time on the reference agencies (60 s windows and quotes), as the runner
 * makes it from what it read of the target. Only the target's clock changes
 * between the plans: the quote-lock check waits for a turn of the target's
 * minute, so each second of the minute is another schedule to find.
 */
describe('the plan of the whole suite in real time on the three reference agencies', () => {
  const fixture = DEFAULT_FIXTURE.agencies.slice(0, 3);
  const profile = resolveProfile({
    base_url: 'http://127.0.0.1:1/v1',
    hotel_base_url: 'http://127.0.0.1:2',
    clock: { control: 'none' },
    limits: { window_s: 60 },
    quotes: { lifetime_s: 60 },
    agencies: fixture.map((a) => agencyFromMock(a)),
  });
  const agencies = resolveAgencies(profile, {});
  const facts: AgencyFacts[] = fixture.map((a, index) => ({
    index,
    id: a.agency_id,
    products: { open: [...a.products], closed: PRODUCTS.filter((p) => !a.products.includes(p)) },
    limits: { ...a.limits },
    balance: a.wallet,
    offerPrice: 28_991,
    quoteLifetimeS: 60,
  }));
  /**
   * The plan's length when the target's clock reads `second` s past a whole minute as the plan starts: its search given a whole minute
   * (the phase of the minute kept; a busy machine would settle it early on a longer order), which it is not made to wait. The harness's
   * clock stands still while it plans: the estimate counts the real time reading and planning took, and on a busy machine the search
   * alone took 20 s, which is not the plan's length.
   */
  const planAt = async (second: number): Promise<number> => {
    const events: RunEvent[] = [];
    vi.spyOn(performance, 'now').mockReturnValue(0);
    const plan = await planSuite({
      profile,
      agencies,
      checks: ALL_CHECKS,
      parts: await loadSuiteParts(),
      maxConcurrent: 8,
      facts: {
        isolated: false,
        realTime: true,
        agencies: facts,
        target: { clock: 'real', agencies: 3, hotel: true, failureTrigger: true, receiver: true, products: facts[0]!.products, primaryAgency: 'agency-alpha' },
        learned: { quoteLifetimeS: 60, targetAt: Date.UTC(2026, 10, 27, 12, 0, second) },
        roundTripMs: 2,
      },
      emit: (e) => void events.push(e),
      bodies: { checks: () => () => Promise.resolve(), parts: () => () => Promise.resolve(), aside: () => () => Promise.resolve() },
      startedAt: 0,
      now: () => 0,
      searchMs: 60_000,
    }).finally(() => vi.restoreAllMocks());
    expect(plan.spansOf).toBeDefined();
    expect(plan.startAt).toBe(60_000);
    const announced = events.find((e) => e.type === 'plan');
    return announced?.type === 'plan' ? (announced.estimateMs ?? Infinity) - plan.startAt! : Infinity;
  };

  it(
    "plays the target clock's waits from the instant the run starts, after the search for its order, not from when the target was read",
    { timeout: 30_000 },
    async () => {
      /** QT-03's planned time when the run starts, the target's clock read `readAgoMs` before the plan began at 12:00:20. */
      const lockPlanned = async (readAgoMs: number): Promise<{ startAt: number; ms: number }> => {
        const plan = await planSuite({
          profile,
          agencies,
          checks: ALL_CHECKS.filter((c) => c.id === 'QT-03'),
          maxConcurrent: 8,
          facts: {
            isolated: false,
            realTime: true,
            agencies: facts,
            target: {
              clock: 'real',
              agencies: 3,
              hotel: true,
              failureTrigger: true,
              receiver: true,
              products: facts[0]!.products,
              primaryAgency: 'agency-alpha',
            },
            learned: { quoteLifetimeS: 60, targetAt: Date.UTC(2026, 10, 27, 12, 0, 20) },
            learnedAt: -readAgoMs,
            roundTripMs: 2,
          },
          emit: () => undefined,
          bodies: { checks: () => () => Promise.resolve(), parts: () => () => Promise.resolve(), aside: () => () => Promise.resolve() },
          startedAt: performance.now(),
          now: () => 0,
        });
        const unit = plan.units.find((u) => u.id === 'QT-03')!;
        return { startAt: plan.startAt!, ms: plan.spansOf!(unit, [0], plan.startAt!).reduce((sum, x) => sum + x.ms, 0) };
      };
      const now = await lockPlanned(0);
      const earlier = await lockPlanned(10_000);
      // The run starts after the search, and the turn's wait is reckoned from then, on the target's clock as read, 10 s apart.
      expect(now.ms + now.startAt - (earlier.ms + earlier.startAt)).toBe(10_000);
      const search = now.startAt;
      // Read at 12:00:20 and started `search` ms later, the run searches after the turn at 12:01:03: 43 s less the search, plus its requests.
      expect(now.ms).toBeGreaterThanOrEqual(43_000 - search);
      expect(now.ms).toBeLessThan(43_000 - search + 1_000);
    },
  );

  // Two windows (a fill, then its rest) and the quote-lock turn overlap in about 155 s; one search started from the agencies as given found 185 s at 0 s.
  it.each([0, 10, 20, 30, 40, 50])('ends within 170 s at %i s past the minute', { timeout: 30_000 }, async (second) => {
    expect(await planAt(second)).toBeLessThan(170_000);
  });
});
