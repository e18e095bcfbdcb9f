import { randomBytes } from 'node:crypto';

/**
 * Quotes, bookings and wallets of the stand-in (REFERENCE-API.md sections 5
 * and 6): a quote locks its price until it expires and is redeemed once; a
 * booking debits the wallet, a cancellation refunds the full price, a failed
 * booking leaves nothing behind.
 */

export interface Money {
  amount: number;
  currency: string;
}

interface Quote {
  agencyId: string;
  product: string;
  price: Money;
  expiresAt: number;
  redeemedBy: string | null;
}

interface Booking {
  agencyId: string;
  body: { booking_id: string; product: string; status: 'confirmed' | 'cancelled'; price: Money; client_reference: string | null; created_at: string };
}

interface Entry {
  entry_id: string;
  type: 'debit' | 'refund';
  amount: number;
  balance_after: number;
  booking_id: string;
  created_at: string;
}

interface Wallet {
  currency: string;
  balance: number;
  entries: Entry[];
}

/** A refusal of the operation itself (step 7): status, code and details. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly details: Record<string, unknown> = {},
  ) {}
}

const iso = (ms: number): string => new Date(ms).toISOString();
const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;

export class Ledger {
  private readonly quotes = new Map<string, Quote>();
  private readonly bookings = new Map<string, Booking>();
  private readonly wallets = new Map<string, Wallet>();
  private lastPrune = 0;

  constructor(private readonly quoteLifetimeMs: number) {}

  openWallet(agencyId: string, currency: string, balance: number): void {
    this.wallets.set(agencyId, { currency, balance, entries: [] });
  }

  private wallet(agencyId: string): Wallet {
    return this.wallets.get(agencyId)!;
  }

  /** A fresh quote for an offer: token `qt_…`, expiry RFC 3339 with milliseconds. */
  quote(agencyId: string, product: string, amount: number, now: number): { quote_token: string; quote_expires_at: string; price: Money } {
    if (now - this.lastPrune > 60_000) this.prune(now);
    const price = { amount, currency: this.wallet(agencyId).currency };
    const token = id('qt');
    const expiresAt = now + this.quoteLifetimeMs;
    this.quotes.set(token, { agencyId, product, price, expiresAt, redeemedBy: null });
    return { quote_token: token, quote_expires_at: iso(expiresAt), price };
  }

  /** Redeems a quote for a booking, or refuses with the code of REFERENCE-API.md section 5. */
  book(agencyId: string, product: string, token: string, clientReference: string | null, now: number): { status: number; body: Booking['body'] } {
    const quote = this.quotes.get(token);
    if (quote === undefined || quote.agencyId !== agencyId) throw new Refusal(404, 'QUOTE_NOT_FOUND', 'No such quote for this agency.');
    if (quote.product !== product)
      throw new Refusal(422, 'VALIDATION_FAILED', 'The quote is for another product.', {
        fields: [{ field: 'quote_token', message: `is a quote for ${quote.product}` }],
      });
    if (now >= quote.expiresAt) throw new Refusal(410, 'QUOTE_EXPIRED', 'The quote has expired.', { quote_expires_at: iso(quote.expiresAt) });
    if (quote.redeemedBy !== null)
      throw new Refusal(409, 'QUOTE_ALREADY_REDEEMED', 'The quote was redeemed by another booking.', { booking_id: quote.redeemedBy });
    const wallet = this.wallet(agencyId);
    if (wallet.balance < quote.price.amount)
      throw new Refusal(402, 'INSUFFICIENT_FUNDS', 'The wallet balance is below the price.', { balance: wallet.balance, price: quote.price.amount });
    if (clientReference !== null && clientReference.startsWith('FAIL-SUPPLIER'))
      throw new Refusal(502, 'SUPPLIER_UNAVAILABLE', 'The supplier refused the booking.');
    const bookingId = id('bk');
    quote.redeemedBy = bookingId;
    const body = { booking_id: bookingId, product, status: 'confirmed' as const, price: quote.price, client_reference: clientReference, created_at: iso(now) };
    this.bookings.set(bookingId, { agencyId, body });
    this.move(wallet, 'debit', quote.price.amount, bookingId, now);
    return { status: 201, body };
  }

  /** The booking, when it is this agency's and of this product. */
  booking(agencyId: string, product: string, bookingId: string): Booking['body'] | undefined {
    const booking = this.bookings.get(bookingId);
    return booking !== undefined && booking.agencyId === agencyId && booking.body.product === product ? booking.body : undefined;
  }

  /** Cancels a confirmed booking and refunds its full price. */
  cancel(agencyId: string, product: string, bookingId: string, now: number): { status: number; body: Record<string, unknown> } {
    const booking = this.booking(agencyId, product, bookingId);
    if (booking === undefined) throw new Refusal(404, 'NOT_FOUND', 'No such booking.');
    if (booking.status === 'cancelled') throw new Refusal(409, 'BOOKING_ALREADY_CANCELLED', 'The booking is already cancelled.', { booking_id: bookingId });
    booking.status = 'cancelled';
    this.move(this.wallet(agencyId), 'refund', booking.price.amount, bookingId, now);
    return { status: 201, body: { cancellation_id: id('cx'), booking_id: bookingId, status: 'cancelled', refund: booking.price, created_at: iso(now) } };
  }

  balance(agencyId: string, now: number): Record<string, unknown> {
    const w = this.wallet(agencyId);
    return { currency: w.currency, balance: w.balance, as_of: iso(now) };
  }

  /** Newest first; the cursor is the position (from the oldest) of the next entry to list. */
  statement(agencyId: string, limit: number, cursor: number | null): Record<string, unknown> {
    const entries = this.wallet(agencyId).entries;
    const start = cursor === null ? entries.length - 1 : Math.min(cursor, entries.length - 1);
    const page: Entry[] = [];
    for (let i = start; i >= 0 && page.length < limit; i--) page.push(entries[i]!);
    const next = start - page.length;
    return { entries: page, next_cursor: next >= 0 ? String(next) : null };
  }

  private move(wallet: Wallet, type: Entry['type'], amount: number, bookingId: string, now: number): void {
    wallet.balance += type === 'debit' ? -amount : amount;
    wallet.entries.push({ entry_id: id('ent'), type, amount, balance_after: wallet.balance, booking_id: bookingId, created_at: iso(now) });
  }

  /** Quotes an hour past their expiry are forgotten (a booking of one is then 404 instead of 410). */
  private prune(now: number): void {
    this.lastPrune = now;
    for (const [token, q] of this.quotes) if (now - q.expiresAt > 3_600_000) this.quotes.delete(token);
  }
}
