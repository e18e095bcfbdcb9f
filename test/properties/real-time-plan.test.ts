import { describe, expect, it } from 'vitest';
import { propertiesAgencies, propertiesRealTimeMs } from '../../properties/index.js';
import { realTimeAgencies } from '../../properties/_internal/real-time-plan.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const ALL = ['no-charge-on-429-and-failure', 'idempotency-model', 'quote-lock'];

describe('the real-time plan of the properties', () => {
  it('fills the smallest write bucket, books quotes with the largest other, idempotency runs on the rest alongside', () => {
    const plan = realTimeAgencies(
      [
        { index: 0, writeLimit: 60 },
        { index: 1, writeLimit: 20 },
        { index: 2, writeLimit: 60 },
        { index: 3, writeLimit: 30 },
      ],
      ALL,
    );
    expect(plan).toEqual({ noCharge: 1, quoteLock: 0, idempotency: [2, 3], concurrent: true, order: ALL });
  });

  it('shares agencies when there are fewer than three, and gives the agencies of properties not chosen to idempotency-model', () => {
    const two = realTimeAgencies(
      [
        { index: 0, writeLimit: 60 },
        { index: 1, writeLimit: 20 },
      ],
      ALL,
    );
    expect(two).toMatchObject({ noCharge: 1, quoteLock: 0, idempotency: [0], concurrent: false });
    const one = realTimeAgencies([{ index: 4, writeLimit: 60 }], ALL);
    // With one agency the fill comes last: nothing after it in the properties needs that write bucket.
    expect(one).toMatchObject({ noCharge: 4, quoteLock: 4, idempotency: [4], order: ['idempotency-model', 'quote-lock', 'no-charge-on-429-and-failure'] });
    const alone = realTimeAgencies(
      [
        { index: 0, writeLimit: 60 },
        { index: 1, writeLimit: 20 },
        { index: 2, writeLimit: 60 },
      ],
      ['idempotency-model'],
    );
    expect(alone).toMatchObject({ idempotency: [0, 1, 2], order: ['idempotency-model'] });
  });

  it('declares to the runner the agency each property runs as, in the order they run, skipping agencies without an open product', () => {
    const agencies = [
      { index: 0, open: ['flights'], writeLimit: 60 },
      { index: 1, open: ['flights'], writeLimit: 20 },
      { index: 2, open: [], writeLimit: 10 },
      { index: 3, open: ['flights'], writeLimit: 60 },
    ];
    expect(propertiesAgencies({ profile: DEFAULT_PROFILE, agencies })).toEqual([1, 3, 0]);
    expect(propertiesAgencies({ only: ['property:quote-lock'], profile: DEFAULT_PROFILE, agencies })).toEqual([0]);
  });

  it('estimates quote-lock as one quote lifetime and the others alongside it; a lifetime too long costs nothing (it skips)', () => {
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
    // Alongside the quotes, the others cost no more than the quotes' wait and the window they add.
    const all = propertiesRealTimeMs({ ...base, agencies });
    expect(all).toBeGreaterThanOrEqual(quotes);
    expect(all).toBeLessThan(quotes + 61_000);
    // Alone on one agency, idempotency-model makes the runs one window takes, without waiting.
    const model = propertiesRealTimeMs({ ...base, only: ['idempotency-model'], agencies: [{ index: 0, writeLimit: 60 }] });
    expect(model).toBeGreaterThan(0);
    expect(model).toBeLessThan(60_000);
  });
});
