import type { LoadVerdict } from '../../results/load-result.js';
import { OwnSpending } from './own-spending.js';
import { formatMoney } from '../../results/units.js';
import { formatMoneyChange } from '../../results/wallet-figures.js';

/** What the load saw of one agency's money-moving requests. */
interface AgencyWalletTally {
  /** Booking id → amount charged, per 201 booking response. */
  booked: Map<string, number>;
  /** Booking id → amount refunded, per 201 cancellation response. */
  refunded: Map<string, number>;
  /** Booking attempts refused by the rate limit. */
  bookingsRateLimited: number;
  /** The status of those refusals (the profile's `errors.rate_limited.status`). */
  rateLimitedStatus: number;
  /** Booking attempts answered with another non-2xx status. */
  bookingsFailed: number;
  /** Booking or cancellation attempts whose response never arrived (they may have been executed). */
  unknownOutcomes: number;
}

/** Tallies of every agency's bookings, cancellations and their outcomes. */
export class WalletTally {
  private readonly agencies = new Map<string, AgencyWalletTally>();
  /** What the load spent of each wallet, to keep within it and to tell its own refusals from the service's errors. */
  readonly spending: OwnSpending;
  /** The status of a rate-limit refusal (the profile's `errors.rate_limited.status`). */
  private readonly rateLimitedStatus: number;

  constructor(o: { rateLimitedStatus: number }) {
    this.rateLimitedStatus = o.rateLimitedStatus;
    this.spending = new OwnSpending(o);
  }

  /** The tally of one agency (created empty). */
  of(agency: string): AgencyWalletTally {
    let t = this.agencies.get(agency);
    if (!t)
      this.agencies.set(
        agency,
        (t = {
          booked: new Map(),
          refunded: new Map(),
          bookingsRateLimited: 0,
          rateLimitedStatus: this.rateLimitedStatus,
          bookingsFailed: 0,
          unknownOutcomes: 0,
        }),
      );
    return t;
  }

  /** A booking attempt's outcome: 2xx with its id and amount, a rate-limit refusal, another failure, or 0 (no response). */
  booking(agency: string, status: number, bookingId?: string, amount?: number): void {
    const t = this.of(agency);
    if (status === 0) t.unknownOutcomes += 1;
    else if (status >= 200 && status <= 299 && bookingId !== undefined) t.booked.set(bookingId, amount ?? Number.NaN);
    else if (status === this.rateLimitedStatus) t.bookingsRateLimited += 1;
    else if (status < 200 || status > 299) t.bookingsFailed += 1;
  }

  /** A cancellation's outcome. */
  cancellation(agency: string, status: number, bookingId?: string, refund?: number): void {
    const t = this.of(agency);
    if (status === 0) t.unknownOutcomes += 1;
    else if (status >= 200 && status <= 299 && bookingId !== undefined) t.refunded.set(bookingId, refund ?? Number.NaN);
  }
}

/** A statement entry as reconciliation reads it. */
export interface LedgerLine {
  id: string | undefined;
  /** `debit` or `refund` (the profile's words, mapped by the caller). */
  type: 'debit' | 'refund' | 'other';
  amount: number | undefined;
  bookingId: string | undefined;
}

/** The wallet of one agency before and after the load. */
interface WalletReading {
  agency: string;
  opening: number;
  closing: number;
  /** The wallet's currency as the balance answer names it (the profile's `balance_currency`); amounts are in its minor units. */
  currency?: string | undefined;
  /** Statement entries made during the run (those not in the opening statement), newest first. */
  entries: LedgerLine[];
}

/**
 * Judges one agency's wallet after the load: balance = opening − debits +
 * refunds; exactly one debit per 201 booking, of the amount charged; none for
 * a booking answered 429 or failed (a debit for a booking id the load never
 * got a 201 for); one refund per 201 cancellation. A debit that could belong
 * to a request whose response never arrived makes a WARN, not a FAIL.
 */
export function reconcileWallet(reading: WalletReading, tally: AgencyWalletTally): LoadVerdict {
  const money = (minor: number | undefined): string => (minor === undefined ? 'no amount' : formatMoney(minor, reading.currency));
  const problems: string[] = [];
  let debits = 0;
  let refunds = 0;
  const debitsByBooking = new Map<string, number[]>();
  const refundsByBooking = new Map<string, number[]>();
  const strayDebits: Array<{ id: string | undefined; bookingId: string | undefined; amount: number | undefined }> = [];
  for (const e of reading.entries) {
    const amount = e.amount ?? Number.NaN;
    if (e.type === 'debit') {
      debits += amount;
      if (e.bookingId !== undefined && tally.booked.has(e.bookingId)) debitsByBooking.set(e.bookingId, [...(debitsByBooking.get(e.bookingId) ?? []), amount]);
      else strayDebits.push({ id: e.id, bookingId: e.bookingId, amount: e.amount });
    } else if (e.type === 'refund') {
      refunds += amount;
      if (e.bookingId !== undefined) refundsByBooking.set(e.bookingId, [...(refundsByBooking.get(e.bookingId) ?? []), amount]);
    } else problems.push(`entry ${e.id ?? '?'} has an unknown type`);
  }
  if (!Number.isFinite(debits) || !Number.isFinite(refunds)) problems.push('a statement entry has no numeric amount');
  else if (reading.closing !== reading.opening - debits + refunds) {
    problems.push(
      `balance ${money(reading.closing)} ≠ opening ${money(reading.opening)} − debits ${money(debits)} + refunds ${money(refunds)} = ${money(reading.opening - debits + refunds)}`,
    );
  }
  const missing: string[] = [];
  const doubled: string[] = [];
  const wrongAmount: string[] = [];
  for (const [id, charged] of tally.booked) {
    const found = debitsByBooking.get(id) ?? [];
    if (found.length === 0) missing.push(id);
    else if (found.length > 1) doubled.push(`${id} (${found.length} debits)`);
    else if (Number.isFinite(charged) && found[0] !== charged) wrongAmount.push(`${id} (debited ${money(found[0])}, booking said ${money(charged)})`);
  }
  if (missing.length) problems.push(`${missing.length} booking(s) answered 201 without a debit, e.g. ${missing.slice(0, 3).join(', ')}`);
  if (doubled.length) problems.push(`${doubled.length} booking(s) debited more than once, e.g. ${doubled.slice(0, 3).join(', ')}`);
  if (wrongAmount.length) problems.push(`${wrongAmount.length} debit(s) differ from the booking's price, e.g. ${wrongAmount.slice(0, 3).join(', ')}`);
  const missingRefunds: string[] = [];
  for (const [id, refund] of tally.refunded) {
    const found = refundsByBooking.get(id) ?? [];
    if (found.length !== 1 || (Number.isFinite(refund) && found[0] !== refund)) missingRefunds.push(`${id} (${found.length} refund entries)`);
  }
  if (missingRefunds.length)
    problems.push(`${missingRefunds.length} cancellation(s) answered 201 without exactly one matching refund, e.g. ${missingRefunds.slice(0, 3).join(', ')}`);

  const details: Record<string, unknown> = {
    currency: reading.currency ?? null,
    change: reading.closing - reading.opening,
    opening: reading.opening,
    closing: reading.closing,
    debits,
    refunds,
    entries: reading.entries.length,
    bookings201: tally.booked.size,
    cancellations201: tally.refunded.size,
    bookingsRateLimited: tally.bookingsRateLimited,
    bookingsFailed: tally.bookingsFailed,
    unknownOutcomes: tally.unknownOutcomes,
    strayDebits: strayDebits.length,
    strayExamples: strayDebits.slice(0, 5),
  };
  const id = `load:wallet:${reading.agency}`;
  const base = { id, kind: 'wallet' as const, agency: reading.agency, details };
  if (strayDebits.length > 0) {
    const strayTotal = strayDebits.reduce((sum, d) => sum + (Number.isFinite(d.amount) ? d.amount! : 0), 0);
    const why = `${strayDebits.length} debit(s) of ${money(strayTotal)} in all for bookings the load never got a 201 for (${tally.bookingsRateLimited} bookings were answered ${tally.rateLimitedStatus}, ${tally.bookingsFailed} failed)`;
    if (strayDebits.length > tally.unknownOutcomes) problems.push(why);
    else if (problems.length === 0) {
      return { ...base, verdict: 'WARN', message: `${why}; as many requests got no response, so they may have been executed` };
    }
  }
  if (problems.length > 0) return { ...base, verdict: 'FAIL', message: `wallet of ${reading.agency} does not reconcile: ${problems.join('; ')}` };
  return {
    ...base,
    verdict: 'PASS',
    message: `wallet of ${reading.agency} reconciles, balance moved ${formatMoneyChange(reading.closing - reading.opening, reading.currency)}: ${money(reading.opening)} − ${money(debits)} + ${money(refunds)} = ${money(reading.closing)}; ${tally.booked.size} debit(s) for ${tally.booked.size} booking(s), none for ${tally.bookingsRateLimited} ${tally.rateLimitedStatus} and ${tally.bookingsFailed} failed booking(s)`,
  };
}
