import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from '../../src/harness.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';

/**
 * Issue 10, "movable clock, 25 ms away": the whole suite against a correct
 * mock whose every request (admin ones included) is handled 25 ms late, its
 * clock driven over the admin API as across a network. A driver that moves
 * the clock by the wait whatever time passed meanwhile overshoots RL-03's
 * early probe; one that steps every second makes the run crawl.
 */
describe('the suite against a mock 25 ms away, clock moved over the admin API', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await createMock({ admin: true, latencyMs: 25 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('raises no false alarm and leaves the mock at real time', async () => {
    const moves: number[] = [];
    const advance = mock.clock.advance.bind(mock.clock);
    mock.clock.advance = (ms: number) => (moves.push(ms), advance(ms));
    const harness = createHarness({
      profile: {
        base_url: mock.baseUrl,
        hotel_base_url: mock.hotelBaseUrl,
        clock: { control: 'mock-admin', admin_url: mock.adminUrl },
        agencies: mock.agencies.slice(0, 2).map((a) => agencyFromMock(a, { limits: false })),
      },
    });
    try {
      const result = await harness.run();
      const alarms = result.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => `${c.id} ${c.verdict}: ${c.message}`);
      expect(alarms).toEqual([]);
      expect(result.summary.PASS).toBeGreaterThan(50);
      // Waits are single moves, fine steps only while webhook attempts may fall due: not a move per second of each
      // window waited (over a thousand moves, each a round trip).
      expect(moves.length).toBeLessThan(300);
      expect(mock.clock.offset).toBe(0);
    } finally {
      await harness.close();
    }
  }, 300_000);
});
