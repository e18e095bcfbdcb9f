import { describe, expect, test } from 'vitest';
import { judgeCurrencyRates } from '../../../src/checks/wallet/currency-rates.js';
import { judgeDebitAndRefund } from '../../../src/checks/wallet/debit-and-refund.js';
import { judgeFailedBooking } from '../../../src/checks/wallet/failed-booking.js';
import { judgeInsufficientFunds } from '../../../src/checks/wallet/insufficient-funds.js';
import { judgeStatementChain } from '../../../src/checks/wallet/statement-chain.js';
import { chainProblems } from '../../../src/checks/_internal/wallet-ledger.js';
import { answer, bookedAnswer, cancelledAnswer, entry, errorAnswer, P, wallet } from '../_fixtures.js';

const d1 = entry('e1', 'debit', 300, 9_700, 'bk_1');
const r1 = entry('e2', 'refund', 300, 10_000, 'bk_1');

describe('wallet judges', () => {
  test('chainProblems finds an entry that does not follow from the one before', () => {
    expect(chainProblems([r1, d1], P)).toEqual([]);
    const bad = entry('e3', 'debit', 100, 9_000, 'bk_2');
    expect(chainProblems([bad, r1, d1], P)[0]).toContain('entry e3 (debit 100) has balance_after 9000, expected 9900');
  });

  test('WL-01 fails when the balance is not the newest balance_after (a dropped refund)', () => {
    expect(judgeStatementChain({ wallet: wallet(10_000, [r1, d1]) }, P).verdict).toBe('PASS');
    const out = judgeStatementChain({ wallet: wallet(10_000, [d1]) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('balance is 10000 but the newest statement entry (e1) has balance_after 9700');
  });

  test('WL-01 states the balance in its currency, never bare minor units', () => {
    const out = judgeStatementChain({ wallet: { ...wallet(10_000, [r1, d1]), currency: 'EUR' } }, P);
    expect(out.message).toBe('balance 100.00 EUR equals the newest balance_after, and all 2 statement entries chain');
    // With no currency named, the figure says it is in minor units.
    expect(judgeStatementChain({ wallet: wallet(10_000, [r1, d1]) }, P).message).toMatch(/^balance 10 000 \(minor units\) equals/);
  });

  test('WL-02 fails when a cancellation refunds nothing', () => {
    const before = wallet(10_000, []);
    const mid = wallet(9_700, [d1]);
    const obs = {
      quotedPrice: 300,
      before,
      booking: bookedAnswer('bk_1', 300),
      afterBooking: mid,
      cancellation: cancelledAnswer('bk_1', 300),
      afterCancel: wallet(10_000, [r1, d1]),
    };
    expect(judgeDebitAndRefund(obs, P).verdict).toBe('PASS');
    const out = judgeDebitAndRefund({ ...obs, afterCancel: wallet(9_700, [d1]) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('cancellation: booking bk_1 was refunded 0 times in the statement, expected exactly once');
    const twice = judgeDebitAndRefund({ ...obs, afterBooking: wallet(9_400, [entry('e9', 'debit', 300, 9_400, 'bk_1'), d1]) }, P);
    expect(twice.message).toContain('booking bk_1 was debited 2 times, expected exactly once');
  });

  test('WL-03 fails when the refused booking charged', () => {
    const refused = errorAnswer(P.errors.supplier_unavailable);
    expect(judgeFailedBooking({ before: wallet(10_000, []), booking: refused, after: wallet(10_000, []) }, P).verdict).toBe('PASS');
    const out = judgeFailedBooking({ before: wallet(10_000, []), booking: refused, after: wallet(9_700, [entry('e1', 'debit', 300, 9_700, undefined)]) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('the refused booking charged the wallet: balance moved by -300, 1 new debit entries');
  });

  test('WL-04 fails when a booking above the balance is accepted', () => {
    const refused = errorAnswer(P.errors.insufficient_funds);
    expect(judgeInsufficientFunds({ price: 9_000, before: wallet(5_000, []), booking: refused, after: wallet(5_000, []) }, P).verdict).toBe('PASS');
    const out = judgeInsufficientFunds({ price: 9_000, before: wallet(5_000, []), booking: bookedAnswer('bk_9', 9_000), after: wallet(5_000, []) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('booking priced 9000 with balance 5000 answered 201, expected 402 INSUFFICIENT_FUNDS');
  });

  const good = { base: 'EUR', rates: { EUR: 1, USD: 1.08, JPY: 162.5 }, as_of: '2026-11-23T19:00:00.000Z' };

  test('WL-05 fails when rates are not readable', () => {
    expect(judgeCurrencyRates({ rates: answer(200, good) }, P).verdict).toBe('PASS');
    expect(judgeCurrencyRates({ rates: errorAnswer(P.errors.not_found) }, P).verdict).toBe('FAIL');
  });

  test('WL-05 fails any JSON object that is not {base, rates, as_of} as REF §5 says', () => {
    const judge = (body: unknown, balanceCurrency?: string) =>
      judgeCurrencyRates({ rates: answer(200, body), ...(balanceCurrency ? { balance: answer(200, { balance: 10_000, currency: balanceCurrency }) } : {}) }, P);
    expect(judge({ pad: 'x'.repeat(40) }).message).toMatch(/base must be an ISO 4217 code.*got nothing/);
    expect(judge({ ...good, base: 'eur' }).message).toContain('base must be an ISO 4217 code (three upper-case letters), got "eur"');
    expect(judge({ ...good, rates: [] }).message).toContain('rates must be a non-empty object');
    expect(judge({ ...good, rates: {} }).message).toContain('rates must be a non-empty object');
    expect(judge({ ...good, rates: { USD: -1, GBP: '0.85', Yen: 2, CHF: Number.NaN } }).message).toMatch(
      /rates must map ISO 4217 codes to positive numbers; wrong: "USD": -1, "GBP": "0.85", "Yen": 2 and 1 more/,
    );
    expect(judge({ ...good, as_of: 'yesterday' }).message).toContain('as_of must be an RFC 3339 date-time, got "yesterday"');
    expect(judge({ ...good, as_of: 1_700_000_000 }).verdict).toBe('FAIL');
    expect(judge(good, 'USD').message).toContain('base is "EUR", but the wallet currency is "USD"');
    expect(judge(good, 'EUR').verdict).toBe('PASS');
  });

  test('WL-05 reads the rates where the profile says they are', () => {
    const moved = { ...P, fields: { ...P.fields, rates_base: 'data.base', rates_rates: 'data.table', rates_as_of: 'data.at' } };
    expect(judgeCurrencyRates({ rates: answer(200, { data: { base: 'EUR', table: { USD: 1.1 }, at: '2026-01-01T00:00:00Z' } }) }, moved).verdict).toBe('PASS');
    expect(judgeCurrencyRates({ rates: answer(200, good) }, moved).verdict).toBe('FAIL');
  });
});
