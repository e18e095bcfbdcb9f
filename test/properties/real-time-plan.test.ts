import { describe, expect, it } from 'vitest';
import { propertiesAgencies, propertiesRealTimeMs } from '../../properties/index.js';
import { realTimeAgencies } from '../../properties/_internal/real-time-plan.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const ALL = ['quote-lock', 'idempotency-model', 'no-charge-on-429-and-failure'];

describe('the real-time plan of the properties', () => {
  it('puts quote-lock and then the fill on the largest write bucket, idempotency-model beside them on the next largest', () => {
    const plan = realTimeAgencies(
      [
        { index: 0, writeLimit: 30 },
        { index: 1, writeLimit: 20 },
        { index: 2, writeLimit: 60 },
        { index: 3, writeLimit: 40 },
      ],
      ALL,
    );
    expect(plan).toEqual({ noCharge: 2, quoteLock: 2, idempotency: [3], concurrent: true, order: ALL });
  });

  it('runs one after the other on a single agency, and gives idempotency-model every agency the others do not take', () => {
    const one = realTimeAgencies([{ index: 4, writeLimit: 60 }], ALL);
    expect(one).toEqual({ noCharge: 4, quoteLock: 4, idempotency: [4], concurrent: false, order: ALL });
    const three = [
      { index: 0, writeLimit: 60 },
      { index: 1, writeLimit: 20 },
      { index: 2, writeLimit: 60 },
    ];
    expect(realTimeAgencies(three, ['idempotency-model'])).toMatchObject({ idempotency: [0, 1, 2], order: ['idempotency-model'] });
    // Without quote-lock the fill comes first: its bucket rests while idempotency-model books with the others.
    expect(realTimeAgencies(three, ['idempotency-model', 'no-charge-on-429-and-failure'])).toMatchObject({
      noCharge: 0,
      idempotency: [1, 2],
      concurrent: false,
      order: ['no-charge-on-429-and-failure', 'idempotency-model'],
    });
  });

  it('declares to the runner the agency each property runs as, in the order they run, skipping agencies without an open product', () => {
    const agencies = [
      { index: 0, open: ['flights'], writeLimit: 60 },
      { index: 1, open: ['flights'], writeLimit: 20 },
      { index: 2, open: [], writeLimit: 100 },
      { index: 3, open: ['flights'], writeLimit: 60 },
    ];
    expect(propertiesAgencies({ profile: DEFAULT_PROFILE, agencies })).toEqual([0, 3, 0]);
    expect(propertiesAgencies({ only: ['property:no-charge-on-429-and-failure'], profile: DEFAULT_PROFILE, agencies })).toEqual([0]);
  });

  it('estimates quote-lock as one quote lifetime, idempotency-model beside it, the fill after; a lifetime too long costs nothing (it skips)', () => {
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
    // Beside the quotes, idempotency-model adds at most the window it waits beyond them, the fill a few requests.
    const all = propertiesRealTimeMs({ ...base, agencies });
    expect(all).toBeGreaterThan(quotes);
    expect(all).toBeLessThan(quotes + 61_000);
    // Alone on one agency, idempotency-model makes the runs one window takes, without waiting.
    const model = propertiesRealTimeMs({ ...base, only: ['idempotency-model'], agencies: [{ index: 0, writeLimit: 60 }] });
    expect(model).toBeGreaterThan(0);
    expect(model).toBeLessThan(60_000);
  });
});
