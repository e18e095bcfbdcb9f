import type { Profile } from '../../profile/index.js';
import type { Findings } from '../findings.js';
import type { WalletSnapshot } from './flow-steps.js';
import { entriesFor, entriesSince, netEffect } from './wallet-ledger.js';

/** What a judge expects the wallet to have seen between two snapshots. */
interface LedgerExpectation {
  /** Bookings that must be debited exactly once at `amount`. */
  debits?: Array<{ bookingId: string; amount: number | undefined; what: string }>;
  /** Bookings that must be refunded exactly once at `amount`. */
  refunds?: Array<{ bookingId: string; amount: number | undefined; what: string }>;
  /** When set, nothing may be charged: names the request that must not charge. */
  noCharge?: string;
}

/**
 * Judges the wallet movement between two snapshots: the balance moved by
 * exactly what the new statement entries say, each expected debit and refund
 * is there exactly once at its amount, and nothing is charged where nothing
 * may be.
 */
export function judgeLedger(f: Findings, before: WalletSnapshot, after: WalletSnapshot, expect: LedgerExpectation, profile: Profile): void {
  const ev = [...before.evidence, ...after.evidence];
  if (before.balance === undefined || after.balance === undefined) {
    f.fail(`wallet balance could not be read (balance answered ${before.balanceStatus}/${after.balanceStatus})`, ...ev);
    return;
  }
  const fresh = entriesSince(after.entries, before.newestId);
  const delta = after.balance - before.balance;
  const net = netEffect(fresh, profile);
  f.expect(delta === net, `balance moved by ${delta} but the statement's ${fresh.length} new entries add up to ${net}`, ...ev);
  for (const d of expect.debits ?? []) {
    const hits = entriesFor(fresh, d.bookingId, profile.values.entry_debit);
    if (hits.length !== 1) f.fail(`${d.what}: booking ${d.bookingId} was debited ${hits.length} times, expected exactly once`, ...ev);
    else if (d.amount !== undefined)
      f.expect(hits[0]!.amount === d.amount, `${d.what}: booking ${d.bookingId} was debited ${String(hits[0]!.amount)}, expected ${d.amount}`, ...ev);
  }
  for (const r of expect.refunds ?? []) {
    const hits = entriesFor(fresh, r.bookingId, profile.values.entry_refund);
    if (hits.length !== 1) f.fail(`${r.what}: booking ${r.bookingId} was refunded ${hits.length} times in the statement, expected exactly once`, ...ev);
    else if (r.amount !== undefined)
      f.expect(hits[0]!.amount === r.amount, `${r.what}: booking ${r.bookingId} was refunded ${String(hits[0]!.amount)}, expected ${r.amount}`, ...ev);
  }
  if (expect.noCharge !== undefined) {
    const debits = fresh.filter((e) => e.type === profile.values.entry_debit);
    f.expect(debits.length === 0 && delta >= 0, `${expect.noCharge} charged the wallet: balance moved by ${delta}, ${debits.length} new debit entries`, ...ev);
  }
}
