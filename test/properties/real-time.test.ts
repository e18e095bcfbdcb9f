import { afterEach, describe, expect, it } from 'vitest';
import { propertiesAgencies, propertiesWriteLimits, runProperties } from '../../properties/index.js';
import type { CheckContext } from '../../src/checks/types.js';
import type { MockOptions } from '../../src/mock/index.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { startContext, type TestContext } from '../scenario/_context.js';

/** Short windows and lifetimes, so that a real-time run waits seconds, not minutes. */
const WINDOW_S = 5;
const LIFETIME_S = 5;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A mock whose clock nobody moves, and a context that waits in real time, as against staging. */
async function realTime(options: MockOptions = {}): Promise<CheckContext> {
  t = await startContext({ windowS: WINDOW_S, quoteLifetimeS: LIFETIME_S, ...options });
  const profile = { ...t.ctx.profile, limits: { ...t.ctx.profile.limits, window_s: WINDOW_S } };
  return { ...t.ctx, profile, clock: new RealClockDriver() };
}

describe('properties in real time', () => {
  it('all hold against the clean mock, each on the agency it declared, saying its runs, seed and why', async () => {
    const ctx = await realTime();
    // The runner leases what the plan declares, from the limits the accounts answer (60, 20, 60, 60 writes).
    const views = ctx.agencies.map((a, index) => ({ index, open: ['flights'], writeLimit: a.limits?.write }));
    const declared = propertiesAgencies({ profile: ctx.profile, agencies: views });
    expect(declared).toEqual([0, 0, 0, 0]);
    const writeLimits = propertiesWriteLimits({ profile: ctx.profile, agencies: views });
    const results = await runProperties({ ...ctx, usableAgencies: new Set([0, 1, 2]) }, { seed: 5, writeLimits });
    expect(results.map((r) => r.id)).toEqual([
      'property:quote-lock',
      'property:idempotency-model',
      'property:openapi-inputs',
      'property:no-charge-on-429-and-failure',
    ]);
    for (const r of results) {
      expect(r, `${r.id}: ${r.message}`).toMatchObject({ verdict: 'PASS', details: { seed: 5, realTime: true, why: expect.any(String) } });
      expect(r.message).toContain((r.details as { why: string }).why);
    }
    const byId = Object.fromEntries(results.map((r) => [r.id, r.details as Record<string, unknown>]));
    // quote-lock leaves idempotency-model after it two runs' writes of its window (12 each): (60 - 2 - 24) / 2 = 17 runs
    expect(byId['property:quote-lock']).toMatchObject({ runs: 17, numRuns: 17 });
    expect(String(byId['property:quote-lock']!.why)).toContain('24 writes of it left for idempotency-model after it');
    expect(byId['property:no-charge-on-429-and-failure']).toMatchObject({ runs: 10 });
    // openapi-inputs runs before the fill with the writes left free, and says how many cases that left out.
    expect(String(byId['property:openapi-inputs']!.why)).toMatch(/^(every case in each run|\d+ writes free: \d+ write cases left out of each run)$/);
    // idempotency-model runs after quote-lock, as many runs as the writes quote-lock left free take, and says so
    const model = byId['property:idempotency-model']!;
    expect(model.runs).toBe(model.numRuns);
    expect(model.runs as number).toBeGreaterThanOrEqual(2);
    const free = Number(/: (\d+) writes of a window free for them/.exec(String(model.why))?.[1]);
    expect(free).toBeGreaterThanOrEqual(12);
    expect(model.runs as number).toBeLessThanOrEqual(Math.max(1, Math.floor(free / 12)));
    // Each property sent only as the agency it declared, though it was leased more.
    const agencyOf = (headers: Record<string, string>): number => ctx.agencies.findIndex((a) => Object.values(headers).some((v) => v.includes(a.keyId)));
    const sentBy = (prefix: string): Set<number> =>
      new Set(t!.recorder.exchanges.filter((x) => x.label?.startsWith(prefix)).map((x) => agencyOf(x.request.headers)));
    for (const prefix of ['property:no-charge-on-429-and-failure', 'property:idempotency-model', 'property:quote-lock', 'property:openapi-inputs', ctx.checkId])
      expect(sentBy(prefix), prefix).toEqual(new Set([0]));
    // They drove the target: bookings, 429s inside the fill, supplier failures, expired quotes.
    const statuses = new Set(t!.recorder.exchanges.map((x) => x.response?.status));
    for (const s of [201, 429, 502, 410]) expect(statuses).toContain(s);
  }, 60_000);

  const broken: [string, string][] = [
    ['expired-quote-accepted', 'quote-lock'],
    ['ratelimit-charges', 'no-charge-on-429-and-failure'],
    ['failed-booking-charges', 'no-charge-on-429-and-failure'],
    ['replay-books-again', 'idempotency-model'],
  ];
  for (const [defect, name] of broken) {
    it(`${name} fails with ${defect}`, async () => {
      const ctx = await realTime({ defects: [defect] });
      const [r] = await runProperties(ctx, { seed: 7, only: [name] });
      expect(r!.verdict, r!.message).toBe('FAIL');
      expect(r!.evidence.length).toBeGreaterThan(0);
      expect(r!.details).toMatchObject({ seed: 7, realTime: true });
    }, 60_000);
  }
});
