/*
 * The mock's `POST /__admin/clock/reset` after a run that moved the clock
 * forward: nothing the run left stamped on the advanced clock may keep a
 * client that signs with the real time waiting on that future. Admitted
 * requests, nonces and idempotency keys stamped in the future count from the
 * reset instant; a webhook retry scheduled on the advanced clock keeps its
 * delay. "Real time" here is a clock the test moves, so no test waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../src/clock/mock-clock.js';
import { freshNonce } from '../../src/protocol/request-signature.js';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { adminRequest, startMock, type MockClient } from '../helpers/mock-client.js';
import { fixtureWithLimits } from '../helpers/mock-fixture.js';

const HOURS_6 = 6 * 3_600_000;

let running: RunningMock | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A mock on a clock whose "real time" the test moves. */
async function mockOnFakeTime(limits = { read: 50, write: 50 }): Promise<{ mock: RunningMock; alpha: MockClient; real: { ms: number } }> {
  const real = { ms: Date.UTC(2026, 10, 28, 9, 0, 0) };
  const clock = new MockClock(() => real.ms);
  const m = await startMock({ clock, fixture: fixtureWithLimits(limits) });
  running = m.mock;
  return { mock: m.mock, alpha: m.alpha, real };
}

const advance = (mock: RunningMock, ms: number) =>
  adminRequest(`${mock.adminUrl}/clock/advance`, { method: 'POST', body: JSON.stringify({ ms }), headers: { 'content-type': 'application/json' } });
const clockReset = (mock: RunningMock) => adminRequest(`${mock.adminUrl}/clock/reset`, { method: 'POST' });

describe('clock/reset leaves nothing in the future', () => {
  it('requests admitted while the clock was 6 h ahead hold a bucket at most one window after the reset (a read answered Retry-After 19553 s)', async () => {
    const { mock, alpha, real } = await mockOnFakeTime({ read: 3, write: 3 });
    expect((await advance(mock, HOURS_6)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await alpha.get('/v1/account')).status).toBe(200);
    expect((await clockReset(mock)).json).toMatchObject({ offset_ms: 0 });
    real.ms += 1000;
    const refused = await alpha.get('/v1/account');
    expect(refused.status).toBe(429);
    // The full bucket counts from the reset instant: a slot frees within the window, as REFERENCE-API.md section 8 says.
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    real.ms += 60_000;
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });

  it('a nonce used on the advanced clock is still refused as a replay after the reset, and is forgotten its retention after it', async () => {
    const { mock, alpha, real } = await mockOnFakeTime();
    await advance(mock, 100_000);
    const signedAt = Math.floor(mock.clock.now() / 1000);
    const nonce = freshNonce();
    expect((await alpha.get('/v1/account', { nonce, timestamp: signedAt })).status).toBe(200);
    await clockReset(mock);
    // 100 s of skew is within the tolerance: only the nonce stops the replay.
    const replay = await alpha.get('/v1/account', { nonce, timestamp: signedAt });
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe('NONCE_REPLAYED');
    // Ten minutes and a second of real time later, nothing from before is held, however far the clock ran ahead.
    real.ms += 601_000;
    const later = await alpha.get('/v1/account');
    expect(later.status).toBe(200);
    expect(mock.service.nonces.size).toBe(1);
  });

  it('nonces recorded after the reset are not held behind one stamped on the advanced clock', async () => {
    const { mock, alpha, real } = await mockOnFakeTime();
    await advance(mock, HOURS_6);
    expect((await alpha.get('/v1/account')).status).toBe(200);
    await clockReset(mock);
    for (let i = 0; i < 3; i++) {
      expect((await alpha.get('/v1/account')).status).toBe(200);
      real.ms += 20_000;
    }
    real.ms += 601_000;
    expect((await alpha.get('/v1/account')).status).toBe(200);
    expect(mock.service.nonces.size).toBe(1);
  });

  it('an idempotency key used on the advanced clock is kept 24 h from the reset, and keys made after it are not held behind it', async () => {
    const { mock, alpha, real } = await mockOnFakeTime();
    await advance(mock, 25 * 3_600_000);
    const q1 = await alpha.quote();
    const first = await alpha.book('flights', q1.quote_token, 'key-advanced');
    expect(first.status).toBe(201);
    await clockReset(mock);
    // Within the retention the key still replays its booking.
    const replay = await alpha.book('flights', q1.quote_token, 'key-advanced');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const q2 = await alpha.quote();
    expect((await alpha.book('flights', q2.quote_token, 'key-real')).status).toBe(201);
    real.ms += 24 * 3_600_000 + 60_000;
    const q3 = await alpha.quote();
    expect((await alpha.book('flights', q3.quote_token, 'key-later')).status).toBe(201);
    expect(mock.service.idempotency.size).toBe(1);
  });

  it('a timer set on the advanced clock keeps its delay after the reset', async () => {
    const real = { ms: 1_000_000 };
    const clock = new MockClock(() => real.ms);
    try {
      await clock.advance(HOURS_6);
      const fired: number[] = [];
      clock.after(5000, () => void fired.push(real.ms));
      clock.resetOffset();
      expect(clock.nextDueAt).toBe(real.ms + 5000);
      real.ms += 5000;
      await clock.advance(0);
      expect(fired).toEqual([real.ms]);
    } finally {
      clock.close();
    }
  });
});
