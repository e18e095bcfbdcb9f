/*
 * Targets that would keep the harness sending: a rate limit announced far
 * above what a fill may send is not filled; the rate-limit checks are a WARN
 * that says why.
 */
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../src/harness.js';
import { DEFAULT_FIXTURE } from '../../src/mock/fixture/default-fixture.js';
import type { Fixture } from '../../src/mock/fixture/fixture-types.js';

/** The default fixture with the first agency's limits replaced. */
function fixtureWith(limits: { read: number; write: number }): Fixture {
  const [first, ...rest] = structuredClone(DEFAULT_FIXTURE.agencies);
  return { ...structuredClone(DEFAULT_FIXTURE), agencies: [{ ...first!, limits }, ...rest] } as Fixture;
}

describe('runaway targets', () => {
  it(
    'an agency announcing a write limit of 1 000 000 is not filled: RL-01 and RL-04 WARN naming the ceiling (RL-01 kept sending)',
    { timeout: 30_000 },
    async () => {
      const harness = createHarness({ mock: { fixture: fixtureWith({ read: 600, write: 1_000_000 }) } });
      try {
        const result = await harness.run({ only: 'RL-01,RL-04' });
        for (const id of ['RL-01', 'RL-04']) {
          const c = result.cases.find((x) => x.id === id)!;
          expect(c.verdict, `${id}: ${c.message}`).toBe('WARN');
          expect(c.message).toContain('write 1000000 per window, over the fill ceiling of 10000 requests (max_fill_requests)');
        }
      } finally {
        await harness.close();
      }
    },
  );

  it("the profile's max_fill_requests is the ceiling", { timeout: 30_000 }, async () => {
    const harness = createHarness({ mock: { fixture: fixtureWith({ read: 600, write: 60 }) }, profile: { max_fill_requests: 50 }, embedded: true });
    try {
      const result = await harness.run({ only: 'RL-01' });
      const c = result.cases[0]!;
      expect(c.verdict).toBe('WARN');
      expect(c.message).toMatch(/read 600 and write 60 per window, over the fill ceiling of 50 requests/);
    } finally {
      await harness.close();
    }
  });
});
