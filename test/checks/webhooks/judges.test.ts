import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  judgeBackoff,
  judgeCancellationEvent,
  judgeDeliveredOnce,
  judgeHotelAttempts,
  judgeHotelSignatures,
  judgeMaxAttempts,
  judgeReplayNoEvent,
  judgeRetryStops,
  judgeServiceSignatures,
  judgeStableId,
} from '../../../src/checks/webhooks/index.js';
import { failingAttempts, HOTEL_SECRET, hotelAttempt, PROFILE, serviceAttempt, T0, WEBHOOK_SECRET, whRun, xid } from '../_fixtures-rl-wh.js';

describe('judgeDeliveredOnce (WH-01)', () => {
  it('passes on one confirmed event naming the booking', () => {
    const o = judgeDeliveredOnce(whRun([serviceAttempt({ attempt: 1, at: T0, status: 200 })], { kind: 'healthy', plan: '200 always' }), PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when a delivered event is sent again or names another booking', () => {
    const run = whRun(
      [
        serviceAttempt({ attempt: 1, at: T0, status: 200, bookingId: 'bk_other' }),
        serviceAttempt({ attempt: 2, at: T0 + 5000, status: 200, bookingId: 'bk_other' }),
      ],
      { plan: '200 always' },
    );
    const o = judgeDeliveredOnce(run, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/got 2 attempts/);
    expect(o.message).toMatch(/names booking "bk_other"/);
    expect(o.evidence?.[0]).toBe(run.exchanges.booking);
  });
  it('answers ERROR when the scenario could not be set up', () => {
    expect(judgeDeliveredOnce(whRun([], { error: 'booking answered 402' }), PROFILE).verdict).toBe('ERROR');
  });
});

describe('judgeServiceSignatures (WH-02)', () => {
  it('passes on attempts signed with the agency secret', () => {
    const o = judgeServiceSignatures({ run: whRun(failingAttempts()), secret: WEBHOOK_SECRET }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails on attempts signed with another key', () => {
    const wrong = 'whsec_' + Buffer.from(WEBHOOK_SECRET).toString('base64');
    const o = judgeServiceSignatures({ run: whRun(failingAttempts({ secret: wrong })), secret: WEBHOOK_SECRET }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/attempt 1 of event evt_fixture0001: signature refused \(signature-mismatch\)/);
  });
  it('fails when a body was changed after signing', () => {
    const a = serviceAttempt({ attempt: 1, at: T0, status: 200 });
    const o = judgeServiceSignatures({ run: whRun([{ ...a, text: a.text.replace('confirmed', 'cancelled') }]), secret: WEBHOOK_SECRET }, PROFILE);
    expect(o.verdict).toBe('FAIL');
  });
});

describe('judgeMaxAttempts (WH-03)', () => {
  it('passes on exactly three attempts', () => {
    expect(judgeMaxAttempts(whRun(failingAttempts()), PROFILE).verdict).toBe('PASS');
  });
  it('fails on a fourth attempt', () => {
    const o = judgeMaxAttempts(whRun(failingAttempts({ count: 4 })), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/got 4 attempts .* more than 3/);
  });
  it('fails when never retried', () => {
    const o = judgeMaxAttempts(whRun(failingAttempts({ count: 1 })), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/only 1 of 3 attempts/);
  });
});

describe('judgeStableId (WH-04)', () => {
  it('passes when every attempt carries one id, numbered 1 to 3', () => {
    expect(judgeStableId(whRun(failingAttempts()), PROFILE).verdict).toBe('PASS');
  });
  it('fails on a new id per attempt', () => {
    const o = judgeStableId(whRun(failingAttempts({ ids: ['evt_a', 'evt_b', 'evt_c'] })), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/3 different x-svc-webhook-id values/);
  });
  it('warns when there was nothing to compare', () => {
    expect(judgeStableId(whRun(failingAttempts({ count: 1 })), PROFILE).verdict).toBe('WARN');
  });
});

describe('judgeBackoff (WH-05)', () => {
  it('passes on base then base × factor (with arrival jitter)', () => {
    const o = judgeBackoff(whRun(failingAttempts({ gapsMs: [5_600, 14_200] })), PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails on constant delays', () => {
    const o = judgeBackoff(whRun(failingAttempts({ gapsMs: [5_000, 5_000] })), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/attempt 3 came 5\.0 s after attempt 2, expected 15\.0 s ± 3\.0 s/);
    expect(o.message).toMatch(/not exponential/);
  });
  it('fails on a first retry far from base', () => {
    const o = judgeBackoff(whRun(failingAttempts({ gapsMs: [1_000, 3_000] })), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/attempt 2 came 1\.0 s after attempt 1/);
  });
});

describe('judgeRetryStops (WH-06)', () => {
  const failThenOk = [serviceAttempt({ attempt: 1, at: T0, status: 500 }), serviceAttempt({ attempt: 2, at: T0 + 5000, status: 200 })];
  it('passes on one failure and one delivered retry', () => {
    expect(judgeRetryStops(whRun(failThenOk, { plan: '500 then 200' }), PROFILE).verdict).toBe('PASS');
  });
  it('fails when the failure was never retried', () => {
    const o = judgeRetryStops(whRun(failThenOk.slice(0, 1), { plan: '500 then 200' }), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/never retried/);
  });
  it('fails when retries go on after delivery', () => {
    const o = judgeRetryStops(whRun([...failThenOk, serviceAttempt({ attempt: 3, at: T0 + 20_000, status: 200 })]), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/after the event was delivered/);
  });
});

describe('judgeReplayNoEvent (WH-07)', () => {
  const replay = xid();
  it('passes on one event for a booking and its replay', () => {
    const run = whRun([serviceAttempt({ attempt: 1, at: T0, status: 200 })], { kind: 'replay', exchanges: { booking: xid(), replay } });
    expect(judgeReplayNoEvent(run, PROFILE).verdict).toBe('PASS');
  });
  it('fails when the replay emitted a second event', () => {
    const run = whRun([serviceAttempt({ attempt: 1, at: T0, status: 200 }), serviceAttempt({ attempt: 1, at: T0 + 20, status: 200, eventId: 'evt_second' })], {
      kind: 'replay',
      exchanges: { booking: xid(), replay },
    });
    const o = judgeReplayNoEvent(run, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/gave 2 event\(s\) .* the replay emitted an event/);
    expect(o.evidence?.[0]).toBe(replay);
  });
});

describe('judgeCancellationEvent (WH-08)', () => {
  const confirmed = serviceAttempt({ attempt: 1, at: T0, status: 200, eventId: 'evt_c1' });
  it('passes on a cancelled event of its own', () => {
    const run = whRun([confirmed, serviceAttempt({ attempt: 1, at: T0 + 30, status: 200, eventId: 'evt_x1', type: 'booking.cancelled' })], { kind: 'cancel' });
    expect(judgeCancellationEvent(run, PROFILE).verdict).toBe('PASS');
  });
  it('fails when no cancelled event came', () => {
    const o = judgeCancellationEvent(whRun([confirmed], { kind: 'cancel' }), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/emitted no booking.cancelled event/);
  });
});

describe('judgeHotelSignatures (WH-09) and judgeHotelAttempts (WH-10)', () => {
  it('passes on a Stripe-style signature with the hotel secret', () => {
    const o = judgeHotelSignatures(
      { run: whRun([hotelAttempt({ at: T0, status: 500 })], { scheme: 'hotel', subjectId: 'HB-FIXTURE-1' }), secret: HOTEL_SECRET },
      PROFILE,
    );
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails on a signature that leaves the timestamp out', () => {
    const a = hotelAttempt({ at: T0, status: 500 });
    const bad = `t=${Math.floor(T0 / 1000)},v1=${createHmac('sha256', HOTEL_SECRET).update(a.text).digest('hex')}`;
    const o = judgeHotelSignatures({ run: whRun([hotelAttempt({ at: T0, status: 500, signature: bad })], { scheme: 'hotel' }), secret: HOTEL_SECRET }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/signature-mismatch/);
  });
  it('passes on one attempt to a failing receiver, fails on a retry', () => {
    expect(judgeHotelAttempts(whRun([hotelAttempt({ at: T0, status: 500 })], { scheme: 'hotel' }), PROFILE).verdict).toBe('PASS');
    const o = judgeHotelAttempts(whRun([hotelAttempt({ at: T0, status: 500 }), hotelAttempt({ at: T0 + 5000, status: 500 })], { scheme: 'hotel' }), PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/got 2 attempts of one hotel event \(\+0\.0s, \+5\.0s\)/);
  });
});
