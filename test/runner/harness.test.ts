import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from '../../src/harness.js';
import type { Check } from '../../src/checks/types.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';

/** Sums every move of a mock's clock (the harness puts the offset back to 0 when a run ends). */
function watchMoves(mock: RunningMock): { readonly ms: number } {
  const advance = mock.clock.advance.bind(mock.clock);
  const moves = { ms: 0 };
  mock.clock.advance = (ms: number) => {
    moves.ms += ms;
    return advance(ms);
  };
  return moves;
}

describe('createHarness', () => {
  it('runs the embedded mock and fails the check a defect breaks', async () => {
    const clean = createHarness();
    const broken = createHarness({ mock: { defects: ['nonce-unchecked'] } });
    try {
      const [ok, bad] = await Promise.all([clean.run({ only: 'AU-05' }), broken.run({ only: 'AU-05', seed: 9 })]);
      expect(ok.verdict).toBe('PASS');
      expect(ok.target.embedded).toBe(true);
      expect(bad.verdict).toBe('FAIL');
      expect(bad.cases[0]).toMatchObject({ id: 'AU-05', verdict: 'FAIL' });
      expect(bad.seed).toBe(9);
    } finally {
      await Promise.all([clean.close(), broken.close()]);
    }
  });

  describe('against a mock in another process (admin clock, receiver)', () => {
    let mock: RunningMock;
    beforeAll(async () => {
      mock = await createMock({ admin: true });
    });
    afterAll(async () => {
      await mock?.close();
    });

    it('drives the clock over the admin API and receives webhooks', async () => {
      const [alpha, beta] = mock.agencies;
      const literal = (a: typeof alpha) => ({
        id: a!.agency_id,
        key_id: a!.key_id,
        secret: a!.secret,
        webhook_secret: a!.webhook_secret,
        hotel_api_key: a!.hotel_api_key,
        hotel_webhook_secret: a!.hotel_webhook_secret,
      });
      const harness = createHarness({
        profile: {
          base_url: mock.baseUrl,
          hotel_base_url: mock.hotelBaseUrl,
          clock: { control: 'mock-admin', admin_url: mock.adminUrl },
          agencies: [literal(alpha), literal(beta)],
        },
      });
      const moves = watchMoves(mock);
      try {
        const result = await harness.run({ only: 'WH-01,WH-03,QT-02' });
        expect(result.target.embedded).toBe(false);
        expect(result.cases.map((c) => [c.id, c.verdict])).toEqual([
          ['QT-02', 'PASS'],
          ['WH-01', 'PASS'],
          ['WH-03', 'PASS'],
        ]);
        // the quote-expiry and webhook-retry waits moved the mock's clock, not real time
        expect(moves.ms).toBeGreaterThanOrEqual(20_000);
        // and the run put it back to real time when it ended (REFERENCE-API.md section 11)
        expect(mock.clock.offset).toBe(0);
        expect(JSON.stringify(result)).not.toContain(alpha!.secret);
      } finally {
        await harness.close();
      }
    });

    it('puts a moved clock back to real time also when a check throws', async () => {
      const [alpha] = mock.agencies;
      const mover: Check = {
        id: 'XX-01',
        title: 'moves the clock, then breaks',
        area: 'quotes',
        clause: 'none',
        needs: ['clock-control'],
        async run(ctx) {
          await ctx.clock.wait(3_600_000);
          throw new Error('broken check');
        },
      };
      const harness = createHarness({
        checks: [mover],
        parts: false,
        profile: {
          base_url: mock.baseUrl,
          hotel_base_url: null,
          clock: { control: 'mock-admin', admin_url: mock.adminUrl },
          agencies: [{ id: alpha!.agency_id, key_id: alpha!.key_id, secret: alpha!.secret }],
        },
      });
      const moves = watchMoves(mock);
      try {
        const result = await harness.run({ only: 'XX-01' });
        expect(result.cases[0]).toMatchObject({ id: 'XX-01', verdict: 'ERROR' });
        // The moves stop short of the instant by what a round trip may take; real time covers the rest.
        expect(moves.ms).toBeGreaterThan(3_599_000);
        expect(mock.clock.offset).toBe(0);
      } finally {
        await harness.close();
      }
    });
  });

  it("gives the embedded mock's rate-limit window to the profile, so the window checks judge a 5 s window", async () => {
    const harness = createHarness({ mock: { windowS: 5 } });
    try {
      const result = await harness.run({ only: 'RL-04,RL-08' });
      expect(result.cases.map((c) => [c.id, c.verdict])).toEqual([
        ['RL-04', 'PASS'],
        ['RL-08', 'PASS'],
      ]);
    } finally {
      await harness.close();
    }
  });

  it('reports a wrong --only before starting anything', async () => {
    const harness = createHarness();
    await expect(harness.run({ only: 'XX-1' })).rejects.toMatchObject({ code: 'E_USAGE' });
    await harness.close();
  });
});
