import { describe, expect, it } from 'vitest';
import { OwnSpending } from '../../src/load/judge/own-spending.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { req } from './_request.js';

const CODES = {
  insufficientFunds: { status: 402, code: 'INSUFFICIENT_FUNDS' },
  quoteAlreadyRedeemed: { status: 409, code: 'QUOTE_ALREADY_REDEEMED' },
};

/** A wallet of USD 50.00 and three quotes of USD 20.00 each. */
function gamma(): OwnSpending {
  const w = new OwnSpending({ rateLimitedStatus: 429 });
  w.open('agency-gamma', 5000, 'USD');
  w.quoted('agency-gamma', [
    { quote_token: 'qt_1', price: 2000 },
    { quote_token: 'qt_2', price: 2000 },
    { quote_token: 'qt_3', price: 2000 },
  ]);
  return w;
}

const book = (w: OwnSpending, quote: string, at: number, status: number, code?: string): void =>
  w.booking('agency-gamma', { op: 'book', quote, sentAt: at, receivedAt: at + 5, status, code, amount: status === 201 ? 2000 : undefined });

describe("refusals the load's own traffic made correct, proven from the wallet tally", () => {
  it('explains a 402 once the load itself spent the balance, and a 409 on a quote it redeemed itself', () => {
    const w = gamma();
    book(w, 'qt_1', 100, 201);
    book(w, 'qt_2', 200, 201);
    // 50.00 − 2 × 20.00 = 10.00 left: a 20.00 quote is refused, rightly.
    book(w, 'qt_3', 300, 402, 'INSUFFICIENT_FUNDS');
    book(w, 'qt_1', 400, 409, 'QUOTE_ALREADY_REDEEMED');
    expect(w.explained(CODES)).toEqual([
      { agency: 'agency-gamma', op: 'book', receivedAt: 305, status: 402, code: 'INSUFFICIENT_FUNDS' },
      { agency: 'agency-gamma', op: 'book', receivedAt: 405, status: 409, code: 'QUOTE_ALREADY_REDEEMED' },
    ]);
  });

  it('keeps as errors a 402 the tally cannot explain, and a 409 on a quote the load never redeemed', () => {
    const w = gamma();
    book(w, 'qt_1', 100, 201);
    // 30.00 left: a 20.00 quote fits, so this 402 is the service's error.
    book(w, 'qt_2', 200, 402, 'INSUFFICIENT_FUNDS');
    // A refund answered before the next refusal was sent puts the money back.
    book(w, 'qt_3', 300, 201);
    w.refund('agency-gamma', 350, 2000);
    book(w, 'qt_2', 400, 402, 'INSUFFICIENT_FUNDS');
    book(w, 'qt_2', 500, 409, 'QUOTE_ALREADY_REDEEMED');
    // A price the load never saw proves nothing.
    book(w, 'qt_unknown', 600, 402, 'INSUFFICIENT_FUNDS');
    expect(w.explained(CODES)).toEqual([]);
  });

  it('sends no booking that would overdraw the wallet, counting bookings in flight', () => {
    const w = gamma();
    expect(w.reserve('agency-gamma', 'qt_1')).toBe(2000);
    expect(w.reserve('agency-gamma', 'qt_2')).toBe(2000);
    // 50.00 − 40.00 in flight: a third 20.00 booking would overdraw.
    expect(w.reserve('agency-gamma', 'qt_3')).toBe('overdraws');
    w.release('agency-gamma', 2000);
    expect(w.reserve('agency-gamma', 'qt_3')).toBe(2000);
    expect(w.reserve('agency-gamma', 'qt_unknown')).toBeUndefined();
    w.replaced('agency-gamma');
    expect(w.notes([]).join('\n')).toMatch(/agency-gamma: 1 booking\(s\) sent as searches instead, since they would have overdrawn its wallet \(50\.00 USD/);
  });

  it('moves an explained refusal from errors to expected, by status and code, in the figures', () => {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    rec.record(
      req({ op: 'book', agency: 'agency-gamma', bucket: 'write', sentAt: 100, receivedAt: 105, latencyMs: 5, status: 402, code: 'INSUFFICIENT_FUNDS' }),
    );
    rec.record(
      req({ op: 'book', agency: 'agency-gamma', bucket: 'write', sentAt: 200, receivedAt: 205, latencyMs: 5, status: 402, code: 'INSUFFICIENT_FUNDS' }),
    );
    rec.record(req({ op: 'book', agency: 'agency-gamma', bucket: 'write', sentAt: 300, receivedAt: 305, latencyMs: 5, status: 500 }));
    expect(rec.explain('book', 105, 402, 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(rec.explain('book', 105, 409, 'QUOTE_ALREADY_REDEEMED')).toBe(false);
    const { operations } = rec.figures();
    expect(operations.book).toMatchObject({
      errors: 2,
      expected: 1,
      errorsBy: { '402 INSUFFICIENT_FUNDS': 1, '500': 1 },
      expectedBy: { '402 INSUFFICIENT_FUNDS': 1 },
    });
    expect(operations.all).toMatchObject({ errors: 2, expected: 1, errorsBy: { '402 INSUFFICIENT_FUNDS': 1, '500': 1 } });
  });
});
