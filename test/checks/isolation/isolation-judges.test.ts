/*
 * The isolation judges on answers a real service might give, not only the
 * mock's own defects: another agency's id answered 200, 403 or 422 instead of
 * 404, a refund landing in the caller's wallet, a replay leaking across
 * agencies, a key refused as reused, public hotel rate keys, entry ids
 * numbered per agency.
 */
import { describe, expect, test } from 'vitest';
import { judgeBookingByOther } from '../../../src/checks/isolation/booking-by-other.js';
import { judgeHotelBookingByOther } from '../../../src/checks/isolation/hotel-booking-by-other.js';
import { judgeHotelRateByOther } from '../../../src/checks/isolation/hotel-rate-by-other.js';
import { judgeKeyByOther } from '../../../src/checks/isolation/idempotency-key-by-other.js';
import { judgeQuoteByOther } from '../../../src/checks/isolation/quote-by-other.js';
import { judgeStatementOfOther } from '../../../src/checks/isolation/statement-of-other.js';
import { judgeWebhookToOther } from '../../../src/checks/isolation/webhook-to-other.js';
import type { ReceivedDelivery } from '../../../src/receiver/index.js';
import { answer, bookedAnswer, cancelledAnswer, entry, errorAnswer, P, replayOf, wallet } from '../_fixtures.js';

const owner0 = wallet(10_000, [entry('e0', 'debit', 100, 10_000, 'bk_old')]);
const other0 = wallet(5_000, [entry('f0', 'debit', 100, 5_000, 'bk_theirs')]);
/** The owner's wallet after booking bk_1 at 300 and cancelling it. */
const ownerRoundTrip = wallet(10_000, [entry('e2', 'refund', 300, 10_000, 'bk_1'), entry('e1', 'debit', 300, 9_700, 'bk_1'), ...owner0.entries]);
const forbidden = answer(403, { error: { code: 'FORBIDDEN', message: 'not yours', details: {}, request_id: 'r' } });
const invalid = errorAnswer(P.errors.validation_failed);

describe('IS-01: another agency reads and cancels a booking', () => {
  const good = {
    bookingId: 'bk_1',
    price: 300,
    before: [owner0, other0] as const,
    otherRead: errorAnswer(P.errors.not_found),
    otherCancel: errorAnswer(P.errors.not_found),
    ownerCancel: cancelledAnswer('bk_1', 300),
    after: [ownerRoundTrip, other0] as const,
  };

  test('passes on 404 NOT_FOUND for both, the booking still confirmed and each wallet moved only by its own', () => {
    const out = judgeBookingByOther(good, P);
    expect(out.verdict, out.message).toBe('PASS');
  });

  test.each([
    ['200', answer(200, { booking_id: 'bk_1', status: 'confirmed' }), '200'],
    ['403', forbidden, '403 FORBIDDEN'],
    ['422', invalid, '422 VALIDATION_FAILED'],
  ])('fails on a read answered %s', (_name, res, said) => {
    const out = judgeBookingByOther({ ...good, otherRead: res }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain(`another agency's read of booking bk_1 answered ${said}, expected 404 NOT_FOUND`);
    expect(out.evidence).toEqual([res.exchange.id]);
  });

  test('fails on a cancellation that executed with the refund in the caller wallet, however the answer reads', () => {
    const refundedToCaller = wallet(5_300, [entry('f1', 'refund', 300, 5_300, 'bk_1'), ...other0.entries]);
    const ownerPaidNoRefund = wallet(9_700, [entry('e1', 'debit', 300, 9_700, 'bk_1'), ...owner0.entries]);
    const out = judgeBookingByOther(
      {
        ...good,
        // A service that answers 404 while it cancels anyway is caught by what moved.
        otherCancel: errorAnswer(P.errors.not_found),
        ownerCancel: errorAnswer(P.errors.booking_already_cancelled),
        after: [ownerPaidNoRefund, refundedToCaller],
      },
      P,
    );
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain(
      "after another agency's cancellation, the owner's own cancellation of booking bk_1 answered 409 BOOKING_ALREADY_CANCELLED, expected 2xx",
    );
    expect(out.message).toContain("the other agency's statement gained 1 entry of no booking of its own: f1 (refund 300 for booking bk_1)");
    expect(out.message).toContain("the other agency's balance moved by 300, expected no movement at all");
  });

  test('fails on a refund landing twice in the owner wallet (once for the other agency)', () => {
    const twice = wallet(10_300, [entry('e3', 'refund', 300, 10_300, 'bk_1'), ...ownerRoundTrip.entries]);
    const out = judgeBookingByOther({ ...good, after: [twice, other0] }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain("the owner's booking bk_1 was refunded 2 times, expected 1");
  });
});

describe('IS-02: another agency books with the owner quote token', () => {
  const good = {
    price: 300,
    before: [owner0, other0] as const,
    otherBooking: errorAnswer(P.errors.quote_not_found),
    ownerBooking: bookedAnswer('bk_1', 300),
    ownerCancel: cancelledAnswer('bk_1', 300),
    after: [ownerRoundTrip, other0] as const,
  };

  test('passes when refused as QUOTE_NOT_FOUND and the owner still books its quote at its price and gets it back', () => {
    expect(judgeQuoteByOther(good, P).verdict).toBe('PASS');
  });

  test('fails on 403, on a quote the owner can no longer redeem, and on a charge to the caller', () => {
    const out = judgeQuoteByOther(
      {
        ...good,
        otherBooking: forbidden,
        ownerBooking: { ...errorAnswer(P.errors.quote_already_redeemed) },
        ownerCancel: undefined,
        after: [owner0, wallet(4_700, [entry('f1', 'debit', 300, 4_700, 'bk_x'), ...other0.entries])],
      },
      P,
    );
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain("another agency's booking with the owner's quote token answered 403 FORBIDDEN, expected 404 QUOTE_NOT_FOUND");
    expect(out.message).toContain("the owner's booking of its own quote after that answered 409 QUOTE_ALREADY_REDEEMED, expected 2xx");
    expect(out.message).toContain("the other agency's statement gained 1 entry of no booking of its own");
  });
});

describe('IS-03 and IS-04: hotel bookings and rate keys', () => {
  test('IS-03 fails on another agency cancelling, or on 403', () => {
    const ok = { reference: 'HB-1', otherCancel: errorAnswer(P.errors.not_found), ownerCancel: answer(200, { reference: 'HB-1', status: 'CANCELLED' }) };
    expect(judgeHotelBookingByOther(ok, P).verdict).toBe('PASS');
    const taken = judgeHotelBookingByOther(
      { ...ok, otherCancel: answer(200, { reference: 'HB-1', status: 'CANCELLED' }), ownerCancel: errorAnswer(P.errors.booking_already_cancelled) },
      P,
    );
    expect(taken.verdict).toBe('FAIL');
    expect(taken.message).toContain("another agency's cancellation of hotel booking HB-1 answered 200, expected 404 NOT_FOUND");
    expect(taken.message).toContain("the owner's own cancellation of hotel booking HB-1 after that answered 409 BOOKING_ALREADY_CANCELLED, expected 2xx");
    expect(judgeHotelBookingByOther({ ...ok, otherCancel: forbidden }, P).verdict).toBe('FAIL');
  });

  const booked = { ...answer(201, { reference: 'HB-2', status: 'CONFIRMED' }), reference: 'HB-2' };
  const delivery = (path: string): ReceivedDelivery =>
    ({ path, text: '{"data":{"reference":"HB-2"}}', headers: {}, receivedAt: 0 }) as unknown as ReceivedDelivery;

  test('IS-04 passes on a bound rate key (404) and on a public one whose booking is wholly the caller own', () => {
    expect(judgeHotelRateByOther({ otherBooking: errorAnswer(P.errors.not_found) }, P).verdict).toBe('PASS');
    const own = judgeHotelRateByOther(
      {
        otherBooking: booked,
        ownerCancel: errorAnswer(P.errors.not_found),
        otherCancel: answer(200, { reference: 'HB-2', status: 'CANCELLED' }),
        ownerEvents: [],
      },
      P,
    );
    expect(own.verdict, own.message).toBe('PASS');
    expect(own.message).toContain('wholly its own');
  });

  test('IS-04 fails on a booking landing on the owner account, and on any other refusal', () => {
    const landed = judgeHotelRateByOther(
      {
        otherBooking: booked,
        ownerCancel: answer(200, { reference: 'HB-2', status: 'CANCELLED' }),
        otherCancel: errorAnswer(P.errors.booking_already_cancelled),
        ownerEvents: [delivery('/wh/owner')],
      },
      P,
    );
    expect(landed.verdict).toBe('FAIL');
    expect(landed.message).toContain(
      "the owner's cancellation of hotel booking HB-2, which another agency made with the owner's rate key answered 200, expected 404 NOT_FOUND",
    );
    expect(landed.message).toContain("the owner's hotel webhook received 1 event(s) of hotel booking HB-2");
    const refused = judgeHotelRateByOther({ otherBooking: invalid }, P);
    expect(refused.verdict).toBe('FAIL');
    expect(refused.message).toContain('answered 422 VALIDATION_FAILED, expected 404 NOT_FOUND (a bound rate key) or a booking of its own');
  });
});

describe('IS-05: another agency sends the owner Idempotency-Keys', () => {
  const ownerBooking = bookedAnswer('bk_1', 300);
  const good = {
    before: [owner0, other0] as const,
    ownerBooking,
    ownerPrice: 300,
    sameBody: errorAnswer(P.errors.quote_not_found),
    ownBody: bookedAnswer('bk_2', 200),
    otherPrice: 200,
    ownerCancel: cancelledAnswer('bk_1', 300),
    otherCancel: cancelledAnswer('bk_2', 200),
    after: [ownerRoundTrip, wallet(5_000, [entry('f2', 'refund', 200, 5_000, 'bk_2'), entry('f1', 'debit', 200, 4_800, 'bk_2'), ...other0.entries])] as const,
  };

  test('passes when the same key and body execute anew and a body of its own books', () => {
    const out = judgeKeyByOther(good, P);
    expect(out.verdict, out.message).toBe('PASS');
  });

  test('passes when the other agency cannot pay for its own booking (402 with a balance below the price)', () => {
    const poor = {
      ...good,
      otherPrice: 6_000,
      ownBody: errorAnswer(P.errors.insufficient_funds),
      otherCancel: undefined,
      after: [ownerRoundTrip, other0] as const,
    };
    expect(judgeKeyByOther(poor, P).verdict).toBe('PASS');
    expect(judgeKeyByOther({ ...poor, otherPrice: 200 }, P).verdict).toBe('FAIL');
  });

  test('fails on the owner answer replayed across agencies', () => {
    const out = judgeKeyByOther({ ...good, sameBody: replayOf(ownerBooking) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain("another agency's booking with the owner's Idempotency-Key and body answered 201, expected 404 QUOTE_NOT_FOUND");
    expect(out.message).toContain('was answered as a replay (idempotent-replayed)');
    expect(out.message).toContain('answered with a body naming bk_1');
  });

  test('fails on a copy of the owner answer without the replay header', () => {
    const out = judgeKeyByOther({ ...good, sameBody: replayOf(ownerBooking, { flag: null }) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('answered with a body naming bk_1');
  });

  test('fails on a key refused as reused or in use in the owner scope', () => {
    for (const def of [P.errors.idempotency_key_reused, P.errors.idempotency_key_in_use]) {
      const out = judgeKeyByOther({ ...good, ownBody: errorAnswer(def), otherCancel: undefined, after: [ownerRoundTrip, other0] }, P);
      expect(out.verdict).toBe('FAIL');
      expect(out.message).toContain(`answered ${def.status} ${def.code}: the key was judged in the owner's scope`);
    }
  });
});

describe('IS-06 and IS-07: events and statements', () => {
  const d = (path: string): ReceivedDelivery =>
    ({ path, text: '{"data":{"booking":{"booking_id":"bk_1"}}}', headers: { 'x-svc-webhook-id': 'evt_1' }, receivedAt: 0 }) as unknown as ReceivedDelivery;
  const base = {
    bookingId: 'bk_1',
    registrations: [answer(200, {}), answer(200, {})],
    booking: bookedAnswer('bk_1', 300),
    cancellation: cancelledAnswer('bk_1', 300),
    ownerEvents: [d('/wh/a')],
    otherEvents: [],
    watchedMs: 3000,
  };

  test('IS-06 fails on an event at the other endpoint, warns when the owner got none', () => {
    expect(judgeWebhookToOther(base, P).verdict).toBe('PASS');
    const leaked = judgeWebhookToOther({ ...base, otherEvents: [d('/wh/b')] }, P);
    expect(leaked.verdict).toBe('FAIL');
    expect(leaked.message).toContain("1 delivery(ies) of the owner's events for booking bk_1 reached another agency's endpoint (event ids: evt_1)");
    expect(judgeWebhookToOther({ ...base, ownerEvents: [] }, P).verdict).toBe('WARN');
  });

  const ownerEntries = [entry('we_2', 'refund', 300, 10_000, 'bk_1'), entry('we_1', 'debit', 300, 9_700, 'bk_1')];
  const obs = { bookingId: 'bk_1', booking: bookedAnswer('bk_1', 300), cancellation: cancelledAnswer('bk_1', 300), ownerEntries, ownerStatement: ['x'] };

  test('IS-07 passes where entry ids are numbered per agency (the same id in both statements, old in the other)', () => {
    const theirs = wallet(5_000, [entry('we_1', 'debit', 100, 5_000, 'bk_theirs')]);
    const out = judgeStatementOfOther({ ...obs, otherBefore: theirs, otherAfter: theirs }, P);
    expect(out.verdict, out.message).toBe('PASS');
  });

  test('IS-07 fails on the owner entries listed in the other statement, by booking or by a new entry id', () => {
    const listed = judgeStatementOfOther({ ...obs, otherBefore: other0, otherAfter: wallet(5_000, [...ownerEntries, ...other0.entries]) }, P);
    expect(listed.verdict).toBe('FAIL');
    expect(listed.message).toContain("another agency's statement lists 2 of the owner's entries (booking bk_1: we_2 refund, we_1 debit)");
    const renamed = wallet(5_000, [entry('we_2', 'refund', 300, 5_000, undefined), ...other0.entries]);
    expect(judgeStatementOfOther({ ...obs, otherBefore: other0, otherAfter: renamed }, P).message).toContain('lists 1 of the owner');
  });
});
