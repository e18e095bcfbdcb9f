import { formatMoney } from '../../results/units.js';

/*
 * What the load itself did to each wallet, so that a refusal its own
 * traffic made correct is told apart from the service's error, from the
 * tally and never from the code alone:
 *
 * - 402 (insufficient funds) is the load's doing when, in some order the
 *   requests' [sent, received] intervals allow, the wallet held less than
 *   the quote's price: opening balance − the price of every booking the load
 *   had redeemed (sent before the refusal was answered) + every refund
 *   answered before the refusal was sent;
 * - 409 (quote already redeemed) is the load's doing when the load itself
 *   redeemed that quote by a booking sent before the refusal was answered.
 *
 * It also keeps the load from overdrawing a wallet: a booking whose quote
 * costs more than the wallet still holds (counting bookings in flight) is
 * sent as a search instead.
 */

/** Quote prices kept per agency: the most recent, enough for the bookings of a journey. */
const PRICES_KEPT = 20_000;

/** A refusal the load may have provoked, judged once the load is over. */
interface Refusal {
  op: string;
  sentAt: number;
  receivedAt: number;
  status: number;
  code: string | undefined;
  quote: string | undefined;
}

interface AgencySpending {
  opening?: number | undefined;
  currency?: string | undefined;
  /** Quote token → price, from the load's own searches. */
  prices: Map<string, number>;
  /** Bookings answered 2xx: when sent, what they cost. */
  debits: Array<{ sentAt: number; amount: number }>;
  /** Cancellations answered 2xx: when answered, what they gave back. */
  refunds: Array<{ receivedAt: number; amount: number }>;
  /** Quote token → when the booking that redeemed it was sent. */
  redeemed: Map<string, number>;
  /** Prices of bookings in flight. */
  reserved: number;
  refusals: Refusal[];
  /** Bookings sent as searches, since they would have overdrawn the wallet. */
  replaced: number;
}

/** A refusal the load's own traffic made correct: counted as expected, with why. */
interface ExplainedRefusal {
  agency: string;
  op: string;
  receivedAt: number;
  status: number;
  code: string | undefined;
}

/** The codes the tally can explain, as the profile names them. */
interface OwnRefusalCodes {
  insufficientFunds: { status: number; code: string };
  quoteAlreadyRedeemed: { status: number; code: string };
}

/** Every agency's spending under load (see the top of this file). */
export class OwnSpending {
  private readonly agencies = new Map<string, AgencySpending>();
  /** The status of a rate-limit refusal (the profile's): no refusal of the service's own to judge. */
  private readonly rateLimitedStatus: number;

  constructor(o: { rateLimitedStatus: number }) {
    this.rateLimitedStatus = o.rateLimitedStatus;
  }

  private of(agency: string): AgencySpending {
    let a = this.agencies.get(agency);
    if (!a) this.agencies.set(agency, (a = { prices: new Map(), debits: [], refunds: [], redeemed: new Map(), reserved: 0, refusals: [], replaced: 0 }));
    return a;
  }

  /** The wallet's balance before the load (minor units). */
  open(agency: string, balance: number, currency?: string): void {
    const a = this.of(agency);
    a.opening = balance;
    a.currency = currency;
  }

  /** Offers of a search the load made: their quotes' prices. */
  quoted(agency: string, offers: ReadonlyArray<{ quote_token?: string | undefined; price?: number | undefined }>): void {
    const a = this.of(agency);
    for (const o of offers) {
      if (o.quote_token === undefined || o.price === undefined || !Number.isFinite(o.price)) continue;
      if (a.prices.size >= PRICES_KEPT) a.prices.delete(a.prices.keys().next().value!);
      a.prices.set(o.quote_token, o.price);
    }
  }

  /**
   * Before a booking of `quote` is sent: the price it reserves when it fits
   * what the wallet still holds (opening − debits + refunds − bookings in
   * flight), `undefined` when the load cannot tell (no opening balance, or a
   * quote it never saw), or `'overdraws'`.
   */
  reserve(agency: string, quote: string | undefined): number | 'overdraws' | undefined {
    const a = this.of(agency);
    const price = quote !== undefined ? a.prices.get(quote) : undefined;
    if (price === undefined || a.opening === undefined) return undefined;
    const spent = a.debits.reduce((n, d) => n + d.amount, 0) - a.refunds.reduce((n, r) => n + r.amount, 0);
    if (a.opening - spent - a.reserved < price) return 'overdraws';
    a.reserved += price;
    return price;
  }

  /** A booking that reserved `price` was answered (or cut off). */
  release(agency: string, price: number | undefined): void {
    if (price !== undefined) this.of(agency).reserved -= price;
  }

  /** A booking sent as a search instead, since it would have overdrawn the wallet. */
  replaced(agency: string): void {
    this.of(agency).replaced += 1;
  }

  /** A booking's answer: a 2xx redeems its quote at its price; a refusal is kept to be judged once the load is over. */
  booking(
    agency: string,
    b: { op: string; quote: string | undefined; sentAt: number; receivedAt: number; status: number; code: string | undefined; amount: number | undefined },
  ): void {
    const a = this.of(agency);
    if (b.status >= 200 && b.status <= 299) {
      const amount = b.amount ?? (b.quote !== undefined ? a.prices.get(b.quote) : undefined);
      if (amount !== undefined && Number.isFinite(amount)) a.debits.push({ sentAt: b.sentAt, amount });
      if (b.quote !== undefined) a.redeemed.set(b.quote, Math.min(a.redeemed.get(b.quote) ?? Infinity, b.sentAt));
    } else if (b.status !== this.rateLimitedStatus && b.status !== 0)
      a.refusals.push({ op: b.op, sentAt: b.sentAt, receivedAt: b.receivedAt, status: b.status, code: b.code, quote: b.quote });
  }

  /** A cancellation answered 2xx: its refund. */
  refund(agency: string, receivedAt: number, amount: number | undefined): void {
    if (amount !== undefined && Number.isFinite(amount)) this.of(agency).refunds.push({ receivedAt, amount });
  }

  /** The refusals the load's own traffic made correct (see the top of this file); every other refusal stays an error. */
  explained(codes: OwnRefusalCodes): ExplainedRefusal[] {
    const out: ExplainedRefusal[] = [];
    const is = (r: Refusal, c: { status: number; code: string }): boolean => r.status === c.status && r.code === c.code;
    for (const [agency, a] of this.agencies) {
      for (const r of a.refusals) {
        let own = false;
        if (is(r, codes.quoteAlreadyRedeemed) && r.quote !== undefined) own = (a.redeemed.get(r.quote) ?? Infinity) < r.receivedAt;
        else if (is(r, codes.insufficientFunds) && r.quote !== undefined && a.opening !== undefined) {
          const price = a.prices.get(r.quote);
          if (price !== undefined) {
            const debited = a.debits.filter((d) => d.sentAt < r.receivedAt).reduce((n, d) => n + d.amount, 0);
            const refunded = a.refunds.filter((x) => x.receivedAt < r.sentAt).reduce((n, x) => n + x.amount, 0);
            own = a.opening - debited + refunded < price;
          }
        }
        if (own) out.push({ agency, op: r.op, receivedAt: r.receivedAt, status: r.status, code: r.code });
      }
    }
    return out;
  }

  /** What the load says of its spending: bookings sent as searches, refusals it made correct itself. */
  notes(explained: readonly ExplainedRefusal[]): string[] {
    const notes: string[] = [];
    for (const [agency, a] of this.agencies) {
      if (a.replaced > 0)
        notes.push(
          `${agency}: ${a.replaced} booking(s) sent as searches instead, since they would have overdrawn its wallet (${a.opening !== undefined ? formatMoney(a.opening, a.currency) : 'its balance'} at the start)`,
        );
      const mine = explained.filter((e) => e.agency === agency);
      if (mine.length === 0) continue;
      const byKey = new Map<string, number>();
      for (const e of mine) byKey.set(`${e.status} ${e.code ?? ''}`.trim(), (byKey.get(`${e.status} ${e.code ?? ''}`.trim()) ?? 0) + 1);
      notes.push(
        `${agency}: ${[...byKey].map(([k, n]) => `${n} × ${k}`).join(', ')} counted as refusals the load provoked, not errors: its own bookings spent the wallet (${a.opening !== undefined ? formatMoney(a.opening, a.currency) : '?'} at the start, ${a.debits.length} booking(s) redeemed) or redeemed the quote`,
      );
    }
    return notes;
  }
}
