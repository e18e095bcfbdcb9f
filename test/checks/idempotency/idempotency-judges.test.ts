import { describe, expect, test } from 'vitest';
import { judgeCancelReplay } from '../../../src/checks/idempotency/cancel-replay.js';
import { judgeConcurrent } from '../../../src/checks/idempotency/concurrent-same-key.js';
import { judgeKeyRequired } from '../../../src/checks/idempotency/key-required.js';
import { judgeKeyReused } from '../../../src/checks/idempotency/key-reused.js';
import { judgeSameKeyReplay } from '../../../src/checks/idempotency/same-key-replay.js';
import { bookedAnswer, cancelledAnswer, entry, errorAnswer, P, replayOf, wallet } from '../_fixtures.js';

const E = P.errors;
const before = wallet(10_000, []);
const charged = wallet(9_500, [entry('e1', 'debit', 500, 9_500, 'bk_1')]);

describe('idempotency judges', () => {
  test('ID-01 fails when a booking without key is executed', () => {
    expect(judgeKeyRequired({ before, bookingWithoutKey: errorAnswer(E.idempotency_key_required), afterBooking: before }, P).verdict).toBe('PASS');
    const out = judgeKeyRequired({ before, bookingWithoutKey: bookedAnswer('bk_1', 500), afterBooking: charged }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('booking without idempotency-key answered 201, expected 400 IDEMPOTENCY_KEY_REQUIRED');
  });

  test('ID-02 passes on a byte-identical flagged replay, fails on a re-rendered body', () => {
    const original = bookedAnswer('bk_1', 500);
    expect(judgeSameKeyReplay({ price: 500, before, original, replay: replayOf(original), after: charged }, P).verdict).toBe('PASS');
    const pretty = replayOf(original, { text: JSON.stringify(JSON.parse(original.text), null, 2) });
    const out = judgeSameKeyReplay({ price: 500, before, original, replay: pretty, after: charged }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toMatch(/its body differs from the original's at byte 1/);
    expect(out.evidence).toEqual([original.exchange.id, pretty.exchange.id]);
    const unflagged = judgeSameKeyReplay({ price: 500, before, original, replay: replayOf(original, { flag: null }), after: charged }, P);
    expect(unflagged.message).toContain('idempotent-replayed: (absent), expected true');
    const again = bookedAnswer('bk_2', 500);
    const booksAgain = judgeSameKeyReplay(
      {
        price: 500,
        before,
        original,
        replay: again,
        after: wallet(9_000, [entry('e2', 'debit', 500, 9_000, 'bk_2'), entry('e1', 'debit', 500, 9_500, 'bk_1')]),
      },
      P,
    );
    expect(booksAgain.message).toContain('the replay created a second booking bk_2');
  });

  test('ID-03 fails when another body is replayed instead of refused', () => {
    const first = bookedAnswer('bk_1', 500);
    expect(judgeKeyReused({ price: 500, before, first, other: errorAnswer(E.idempotency_key_reused), after: charged }, P).verdict).toBe('PASS');
    const out = judgeKeyReused({ price: 500, before, first, other: replayOf(first), after: charged }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('same key with another body answered 201, expected 422 IDEMPOTENCY_KEY_REUSED');
  });

  test('ID-04 passes on one booking with in-use refusals and replays, fails when another request executed', () => {
    const original = bookedAnswer('bk_1', 500);
    const fine = [original, errorAnswer(E.idempotency_key_in_use), replayOf(original)];
    expect(judgeConcurrent({ price: 500, before, responses: fine, after: charged }, P).verdict).toBe('PASS');
    const executed = errorAnswer(E.quote_already_redeemed);
    const out = judgeConcurrent({ price: 500, before, responses: [original, executed], after: charged }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe(
      'request 2 of 2 with the same key and body was executed (answered 409 QUOTE_ALREADY_REDEEMED), expected 409 IDEMPOTENCY_KEY_IN_USE or a replay',
    );
    expect(out.evidence).toEqual([executed.exchange.id]);
    const two = judgeConcurrent({ price: 500, before, responses: [original, bookedAnswer('bk_2', 500)], after: charged }, P);
    expect(two.message).toContain('created 2 bookings');
  });

  test('ID-05 fails when a replayed cancellation refunds again', () => {
    const original = cancelledAnswer('bk_1', 500);
    const refunded = wallet(10_500, [entry('e2', 'refund', 500, 10_500, 'bk_1')]);
    expect(judgeCancelReplay({ bookingId: 'bk_1', price: 500, before, original, replay: replayOf(original), after: refunded }, P).verdict).toBe('PASS');
    const twice = wallet(11_000, [entry('e3', 'refund', 500, 11_000, 'bk_1'), entry('e2', 'refund', 500, 10_500, 'bk_1')]);
    const out = judgeCancelReplay({ bookingId: 'bk_1', price: 500, before, original, replay: replayOf(original), after: twice }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('booking bk_1 was refunded 2 times in the statement, expected exactly once');
  });
});
