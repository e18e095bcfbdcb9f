import { describe, expect, it } from 'vitest';
import { criteriaDigest, offersFor, priceAt } from '../../src/mock/domain/pricing.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const DEFAULT_PROFILE_CRITERIA = DEFAULT_PROFILE.search_criteria as Record<string, Record<string, string | number>>;

/** Criteria of many car searches: the profile's and variations of it. */
const carSearches = Array.from({ length: 200 }, (_, i) => ({ ...DEFAULT_PROFILE_CRITERIA.cars!, driver_age: 18 + (i % 82), pickup_location: `Depot ${i}` }));

describe('the mock prices', () => {
  it('give every car search a first offer a USD 50.00 wallet pays, in every one of its 97 price minutes', () => {
    let dearest = 0;
    for (const criteria of carSearches) {
      const digest = criteriaDigest('cars', criteria);
      for (let minute = 0; minute < 97; minute++) dearest = Math.max(dearest, priceAt('cars', digest, 0, minute));
    }
    expect(dearest).toBeLessThanOrEqual(5_000);
    expect(dearest).toBeGreaterThan(4_000);
  });

  it('move every offer of every product from one clock minute to the next', () => {
    for (const [product, criteria] of Object.entries(DEFAULT_PROFILE_CRITERIA) as Array<[Parameters<typeof offersFor>[0], Record<string, string | number>]>) {
      for (let minute = 29_000_000; minute < 29_000_000 + 97; minute++) {
        const now = offersFor(product, criteria, minute).map((o) => o.amount);
        const next = offersFor(product, criteria, minute + 1).map((o) => o.amount);
        for (let i = 0; i < now.length; i++) expect(next[i], `${product} offer ${i}, minute ${minute}`).not.toBe(now[i]);
      }
    }
  });
});
