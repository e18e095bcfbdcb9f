import { describe, expect, it } from 'vitest';
import { createHarness } from '../../src/harness.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';

describe('createHarness().load', () => {
  it('starts the embedded mock with the given agencies, runs the load on them and stops the mock on close', async () => {
    const harness = createHarness({ mock: { admin: false, fixture: { agencies: generateAgencies(2) } } });
    try {
      const { mock } = await harness.prepare();
      const result = await harness.load({ search: 'flights', durationS: 0.5, connections: 2 });
      const load = result.load as LoadResult;
      expect(load.agencies).toEqual(['agency-load-001', 'agency-load-002']);
      expect(load.totals.requests).toBeGreaterThan(0);
      expect(result.target.embedded).toBe(true);
      expect(result.target.baseUrl).toBe(mock!.baseUrl);
      // Each wallet verdict carries the wallet's currency, read from the balance answer, and states amounts in it.
      const wallets = load.verdicts.filter((v) => v.kind === 'wallet');
      expect(wallets).toHaveLength(2);
      for (const w of wallets) {
        expect(w.details).toMatchObject({ currency: 'EUR', change: 0 });
        expect(w.message).toMatch(/balance moved 0\.00 EUR: [\d ]+\.\d\d EUR − 0\.00 EUR \+ 0\.00 EUR = [\d ]+\.\d\d EUR/);
      }
    } finally {
      await harness.close();
    }
  }, 30_000);

  it('refuses a --search product the target does not sell, before any load', async () => {
    const harness = createHarness({ mock: { admin: false } });
    try {
      await expect(harness.load({ search: 'spaceships', durationS: 1 })).rejects.toMatchObject({
        code: 'E_USAGE',
        message: expect.stringContaining('unknown product "spaceships"'),
      });
    } finally {
      await harness.close();
    }
  });
});
