import { describe, expect, test } from 'vitest';
import { judgeExpiredQuote } from '../../../src/checks/quotes/expired-quote.js';
import { judgeLockedPrice, movedIndex } from '../../../src/checks/quotes/locked-price.js';
import { judgeQuoteFields } from '../../../src/checks/quotes/quote-fields.js';
import { judgeRedeemedTwice } from '../../../src/checks/quotes/redeemed-twice.js';
import { judgeUnknownQuote, tamperToken } from '../../../src/checks/quotes/unknown-quote.js';
import { bookedAnswer, entry, errorAnswer, P, searchAnswer, wallet } from '../_fixtures.js';

const T0 = Date.parse('2027-01-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('quote judges', () => {
  test('QT-01 fails on an expiry beyond the lifetime or not a date', () => {
    const ok = searchAnswer([{ token: 'qt_a', price: 100, expiresAt: iso(T0 + 900_000) }], T0);
    expect(judgeQuoteFields({ searches: [{ product: 'flights', res: ok }] }, P).verdict).toBe('PASS');
    const late = searchAnswer(
      [
        { token: 'qt_a', price: 100, expiresAt: iso(T0 + 3_600_000) },
        { token: 'qt_b', price: 1, expiresAt: 'soon' },
      ],
      T0,
    );
    const out = judgeQuoteFields({ searches: [{ product: 'flights', res: late }] }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('beyond the 900 s lifetime');
    expect(out.message).toContain('"soon" that is not a date-time');
  });

  test('QT-02 fails when an expired quote is booked and charged', () => {
    const before = wallet(10_000, []);
    expect(judgeExpiredQuote({ waitedMs: 901_000, before, booking: errorAnswer(P.errors.quote_expired), after: wallet(10_000, []) }, P).verdict).toBe('PASS');
    const out = judgeExpiredQuote(
      { waitedMs: 901_000, before, booking: bookedAnswer('bk_1', 300), after: wallet(9_700, [entry('e1', 'debit', 300, 9_700, 'bk_1')]) },
      P,
    );
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('booking with a quote expired 901 s after its search answered 201, expected 410 QUOTE_EXPIRED');
    expect(out.message).toContain('charged the wallet');
  });

  test('QT-03 passes on the locked price, fails on the live one, warns when no price moved', () => {
    const first = searchAnswer([{ token: 'qt_a', price: 500 }]);
    const later = [searchAnswer([{ token: 'qt_b', price: 700 }])];
    expect(movedIndex(first.offers, later[0]!.offers)).toBe(0);
    const before = wallet(10_000, []);
    const good = {
      index: 0,
      lockedPrice: 500,
      livePrice: 700,
      before,
      booking: bookedAnswer('bk_1', 500),
      after: wallet(9_500, [entry('e1', 'debit', 500, 9_500, 'bk_1')]),
    };
    expect(judgeLockedPrice({ first, later, moved: good }, P).verdict).toBe('PASS');
    const live = { ...good, booking: bookedAnswer('bk_1', 700), after: wallet(9_300, [entry('e1', 'debit', 700, 9_300, 'bk_1')]) };
    const out = judgeLockedPrice({ first, later, moved: live }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('booking of a quote at 500 after the live price moved to 700 was charged 700');
    const still = judgeLockedPrice({ first, later: [searchAnswer([{ token: 'qt_c', price: 500 }])] }, P);
    expect(still.verdict).toBe('WARN');
    expect(still.message).toContain('could not observe a price move');
  });

  test('QT-04 fails when a tampered token is booked', () => {
    expect(tamperToken('qt_abc')).toBe('qt_abA');
    const nf = P.errors.quote_not_found;
    const before = wallet(10_000, []);
    expect(judgeUnknownQuote({ before, bookings: [{ what: 'tampered', res: errorAnswer(nf) }], after: wallet(10_000, []) }, P).verdict).toBe('PASS');
    const out = judgeUnknownQuote({ before, bookings: [{ what: 'tampered', res: errorAnswer(P.errors.validation_failed) }], after: wallet(10_000, []) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('tampered answered 422 VALIDATION_FAILED, expected 404 QUOTE_NOT_FOUND');
  });

  test('QT-05 fails when a quote is redeemed twice', () => {
    const before = wallet(10_000, []);
    const after = wallet(9_500, [entry('e1', 'debit', 500, 9_500, 'bk_1')]);
    expect(
      judgeRedeemedTwice({ price: 500, before, first: bookedAnswer('bk_1', 500), second: errorAnswer(P.errors.quote_already_redeemed), after }, P).verdict,
    ).toBe('PASS');
    const twice = wallet(9_000, [entry('e2', 'debit', 500, 9_000, 'bk_2'), entry('e1', 'debit', 500, 9_500, 'bk_1')]);
    const out = judgeRedeemedTwice({ price: 500, before, first: bookedAnswer('bk_1', 500), second: bookedAnswer('bk_2', 500), after: twice }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('second booking of the same quote with another key answered 201, expected 409 QUOTE_ALREADY_REDEEMED');
    expect(out.message).toContain('the second booking bk_2 was charged');
  });
});
