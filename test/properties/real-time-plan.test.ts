import { describe, expect, it } from 'vitest';
import { propertiesAgencies, propertiesRealTimeMs, propertiesRequests } from '../../properties/index.js';
import { likelyBefore, quoteWritesNow } from '../../properties/_internal/quote-batch.js';
import { realTimeAgencies } from '../../properties/_internal/real-time-plan.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const ALL = ['quote-lock', 'idempotency-model', 'no-charge-on-429-and-failure'];

describe('the real-time plan of the properties', () => {
  it('runs every property on the largest write bucket, quote-lock first, the fill last, the other agencies left to the runner', () => {
    const plan = realTimeAgencies(
      [
        { index: 0, writeLimit: 30 },
        { index: 1, writeLimit: 20 },
        { index: 2, writeLimit: 60 },
        { index: 3, writeLimit: 40 },
      ],
      ALL,
    );
    expect(plan).toEqual({ noCharge: 2, quoteLock: 2, idempotency: [2], order: ALL });
  });

  it('spreads idempotency-model over every agency when it runs alone', () => {
    const three = [
      { index: 0, writeLimit: 60 },
      { index: 1, writeLimit: 20 },
      { index: 2, writeLimit: 60 },
    ];
    expect(realTimeAgencies(three, ['idempotency-model'])).toMatchObject({ idempotency: [0, 1, 2], order: ['idempotency-model'] });
    expect(realTimeAgencies(three, ['idempotency-model', 'no-charge-on-429-and-failure'])).toMatchObject({
      noCharge: 0,
      idempotency: [0],
      order: ['idempotency-model', 'no-charge-on-429-and-failure'],
    });
  });

  it('declares to the runner the agency each property runs as, in the order they run, skipping agencies without an open product', () => {
    const agencies = [
      { index: 0, open: ['flights'], writeLimit: 60 },
      { index: 1, open: ['flights'], writeLimit: 20 },
      { index: 2, open: [], writeLimit: 100 },
      { index: 3, open: ['flights'], writeLimit: 60 },
    ];
    expect(propertiesAgencies({ profile: DEFAULT_PROFILE, agencies })).toEqual([0, 0, 0, 0]);
    expect(propertiesAgencies({ only: ['property:idempotency-model'], profile: DEFAULT_PROFILE, agencies })).toEqual([0]);
  });

  it('estimates quote-lock as one quote lifetime, idempotency-model one window of writes without a wait, the fill a few requests; a lifetime too long costs nothing (it skips)', () => {
    const agencies = [
      { index: 0, writeLimit: 60 },
      { index: 1, writeLimit: 20 },
      { index: 2, writeLimit: 60 },
    ];
    const base = { windowMs: 60_000, writeLimit: 60, requestMs: 10, quoteLifetimeS: 60 };
    const quotes = propertiesRealTimeMs({ ...base, only: ['quote-lock'], agencies });
    expect(quotes).toBeGreaterThanOrEqual(60_000);
    expect(quotes).toBeLessThan(70_000);
    expect(propertiesRealTimeMs({ ...base, only: ['quote-lock'], agencies, quoteLifetimeS: 900 })).toBe(0);
    // idempotency-model and the fill wait for nothing: their requests come on top.
    const all = propertiesRealTimeMs({ ...base, agencies });
    expect(all).toBeGreaterThan(quotes);
    expect(all).toBeLessThan(quotes + 10_000);
    // Beside a scenario's wait, quote-lock and idempotency-model; after it, the fill.
    const beside = propertiesRealTimeMs({ ...base, agencies, besideWait: true });
    const after = propertiesRealTimeMs({ ...base, agencies, besideWait: false });
    expect(beside).toBeGreaterThanOrEqual(quotes);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(5_000);
    expect(beside + after).toBe(all);
    // Alone on one agency, idempotency-model makes the runs one window takes, without waiting.
    const model = propertiesRealTimeMs({ ...base, only: ['idempotency-model'], agencies: [{ index: 0, writeLimit: 60 }] });
    expect(model).toBeGreaterThan(0);
    expect(model).toBeLessThan(60_000);
  });

  it("asks room for quote-lock's quotes and its bookings before their expiry when the quotes live a window, for every booking and cancellation else; the others measure what is free", () => {
    // each side drawn evenly: what one batch in a hundred draws more of (P(X ≥ 14 of 17) = 0.64%, P(X ≥ 13) = 2.5%)
    expect(likelyBefore(17)).toBe(13);
    expect(likelyBefore(25)).toBe(18);
    expect(likelyBefore(1)).toBe(1);
    expect(quoteWritesNow(11, 25, 60_000, 60_000)).toBe(11);
    expect(quoteWritesNow(11, 25, 30_000, 60_000)).toBe(50);
    // beside idempotency-model, quote-lock leaves it two runs' writes of the window: 17 runs, not 25; it asks room for its bookings
    // before the expiry, its budget's reserve of 2 and the write that measures the bucket
    const asked = propertiesRequests({ writeLimit: 60, windowMs: 60_000, quoteLifetimeS: 60 });
    expect(asked).toEqual([
      { name: 'quote-lock', read: 21, write: 16 },
      { name: 'idempotency-model', read: 0, write: 0 },
      { name: 'openapi-inputs', read: 0, write: 0 },
      { name: 'no-charge-on-429-and-failure', read: 0, write: 0 },
    ]);
    // beside idempotency-model on a write limit of 20, it leaves half the free writes: (18 - 9) / 2 = 4 runs
    expect(propertiesRequests({ writeLimit: 20, windowMs: 60_000, quoteLifetimeS: 60 })[0]).toEqual({ name: 'quote-lock', read: 8, write: 7 });
    // alone, with a write limit of 20, quote-lock makes 9 runs
    expect(propertiesRequests({ only: ['quote-lock'], writeLimit: 60, windowMs: 60_000, quoteLifetimeS: 60 })).toEqual([
      { name: 'quote-lock', read: 29, write: 21 },
    ]);
    expect(propertiesRequests({ only: ['quote-lock'], writeLimit: 20, windowMs: 60_000, quoteLifetimeS: 30 })).toEqual([
      { name: 'quote-lock', read: 13, write: 21 },
    ]);
  });
});
