import { describe, expect, it } from 'vitest';
import { reconcileWallet, WalletTally } from '../../src/load/judge/wallet-reconciliation.js';

describe('reconcileWallet', () => {
  it('passes when every 201 booking has one debit and every 201 cancellation one refund', () => {
    const t = new WalletTally({ rateLimitedStatus: 429 });
    t.booking('a', 201, 'bk1', 300);
    t.booking('a', 201, 'bk2', 200);
    t.booking('a', 429);
    t.booking('a', 502);
    t.cancellation('a', 201, 'bk2', 200);
    const v = reconcileWallet(
      {
        agency: 'a',
        opening: 1000,
        closing: 700,
        entries: [
          { id: 'e3', type: 'refund', amount: 200, bookingId: 'bk2' },
          { id: 'e2', type: 'debit', amount: 200, bookingId: 'bk2' },
          { id: 'e1', type: 'debit', amount: 300, bookingId: 'bk1' },
        ],
      },
      t.of('a'),
    );
    expect(v.verdict).toBe('PASS');
    expect(v.details).toMatchObject({ bookings201: 2, bookingsRateLimited: 1, bookingsFailed: 1 });
  });

  it('fails on a debit for a booking answered 429, a doubled debit, and a balance that does not add up', () => {
    const t = new WalletTally({ rateLimitedStatus: 429 });
    t.booking('a', 201, 'bk1', 300);
    t.booking('a', 429);
    const stray = reconcileWallet(
      {
        agency: 'a',
        opening: 1000,
        closing: 400,
        entries: [
          { id: 'e2', type: 'debit', amount: 300, bookingId: 'bk9' },
          { id: 'e1', type: 'debit', amount: 300, bookingId: 'bk1' },
        ],
      },
      t.of('a'),
    );
    expect(stray.verdict).toBe('FAIL');
    expect(stray.message).toMatch(/never got a 201/);
    const doubled = reconcileWallet(
      {
        agency: 'a',
        opening: 1000,
        closing: 400,
        entries: [
          { id: 'e2', type: 'debit', amount: 300, bookingId: 'bk1' },
          { id: 'e1', type: 'debit', amount: 300, bookingId: 'bk1' },
        ],
      },
      t.of('a'),
    );
    expect(doubled.message).toMatch(/more than once/);
    const off = reconcileWallet({ agency: 'a', opening: 1000, closing: 650, entries: [{ id: 'e1', type: 'debit', amount: 300, bookingId: 'bk1' }] }, t.of('a'));
    expect(off.verdict).toBe('FAIL');
    expect(off.message).toMatch(/balance 650/);
    const inEuro = reconcileWallet(
      { agency: 'a', opening: 1000, closing: 650, currency: 'EUR', entries: [{ id: 'e1', type: 'debit', amount: 300, bookingId: 'bk1' }] },
      t.of('a'),
    );
    expect(inEuro.message).toContain('balance 6.50 EUR ≠ opening 10.00 EUR − debits 3.00 EUR + refunds 0.00 EUR = 7.00 EUR');
    expect(inEuro.details).toMatchObject({ currency: 'EUR', change: -350, opening: 1000, closing: 650 });
  });

  it('warns, not fails, when a stray debit may belong to a request whose answer never came', () => {
    const t = new WalletTally({ rateLimitedStatus: 429 });
    t.booking('a', 0);
    const v = reconcileWallet({ agency: 'a', opening: 1000, closing: 700, entries: [{ id: 'e1', type: 'debit', amount: 300, bookingId: 'bk7' }] }, t.of('a'));
    expect(v.verdict).toBe('WARN');
  });
});
