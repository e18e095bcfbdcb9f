import { describe, expect, it } from 'vitest';
import { propertiesAgencies, propertiesRealTimeMs } from '../../properties/index.js';
import { realTimeAgencies } from '../../properties/_internal/real-time-plan.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const ALL = ['idempotency-model', 'quote-lock', 'no-charge-on-429-and-failure'];

describe('the real-time plan of the properties', () => {
  it('runs every property on the largest write bucket, the fill last, the other agencies left to the runner', () => {
    const plan = realTimeAgencies(
      [
        { index: 0, writeLimit: 30 },
        { index: 1, writeLimit: 20 },
        { index: 2, writeLimit: 60 },
        { index: 3, writeLimit: 40 },
      ],
      ALL,
    );
    expect(plan).toEqual({ noCharge: 2, quoteLock: 2, idempotency: [2], quoteLockAfter: true, order: ALL });
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
      quoteLockAfter: false,
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
    expect(propertiesAgencies({ profile: DEFAULT_PROFILE, agencies })).toEqual([0, 0, 0]);
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
    // Alone on one agency, idempotency-model makes the runs one window takes, without waiting.
    const model = propertiesRealTimeMs({ ...base, only: ['idempotency-model'], agencies: [{ index: 0, writeLimit: 60 }] });
    expect(model).toBeGreaterThan(0);
    expect(model).toBeLessThan(60_000);
  });
});
