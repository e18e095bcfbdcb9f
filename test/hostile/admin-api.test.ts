/*
 * Hostile requests to the mock's admin API: a clock advance past the bound is
 * refused with the error envelope naming the bound, and the clock stays put.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import { MAX_ADVANCE_MS } from '../../src/mock/http/admin-app.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { clockBoundMs } from '../../src/clock/clock-bound.js';
import { adminRequest } from '../helpers/mock-client.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await createMock({ port: 0, hotelPort: 0, adminPort: 0, admin: true });
});
afterAll(async () => {
  await mock.close();
});

const advance = (body: string) => adminRequest(`${mock.adminUrl}/clock/advance`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('hostile admin requests', () => {
  it.each(['1e308', String(MAX_ADVANCE_MS + 1), '99999999999999'])(
    'clock/advance {"ms": %s} is a 400 naming the bound, and the clock does not move (1e308 was accepted)',
    async (ms) => {
      const before = mock.clock.offset;
      const res = await advance(`{"ms": ${ms}}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: { code: 'BAD_REQUEST', details: { max_ms: MAX_ADVANCE_MS } } });
      expect(res.json.error.message).toContain(`ms must be at most ${MAX_ADVANCE_MS} (7 days)`);
      expect(mock.clock.offset).toBe(before);
    },
  );

  it('clock/advance to an until_ms beyond the bound is a 400, and the clock does not move', async () => {
    const before = mock.clock.offset;
    const res = await advance(`{"ms": 0, "until_ms": ${mock.clock.now() + MAX_ADVANCE_MS + 60_000}}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'BAD_REQUEST', details: { max_ms: MAX_ADVANCE_MS } } });
    expect(mock.clock.offset).toBe(before);
  });

  it('an advance of exactly the bound is made', async () => {
    const before = mock.clock.offset;
    const res = await advance(`{"ms": ${MAX_ADVANCE_MS}}`);
    expect(res.status).toBe(200);
    expect(mock.clock.offset - before).toBe(MAX_ADVANCE_MS);
    await adminRequest(`${mock.adminUrl}/clock/reset`, { method: 'POST' });
  });

  it("the harness's own longest move, with every profile duration at its largest, stays under the bound", () => {
    const widest = resolveProfile({
      limits: { window_s: 86_400, nonce_retention_s: 86_400, timestamp_tolerance_s: 86_400 },
      quotes: { lifetime_s: 86_400 },
      webhooks: { max_attempts: 1, base_ms: 86_400_000, delivery_timeout_ms: 600_000 },
    });
    expect(clockBoundMs(widest)).toBeLessThan(MAX_ADVANCE_MS);
    expect(clockBoundMs(DEFAULT_PROFILE)).toBeLessThan(MAX_ADVANCE_MS);
  });
});
