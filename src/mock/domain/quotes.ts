import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isProduct, type Product } from '../fixture/fixture-types.js';
import { idSource } from './fast-id.js';

const nextQuoteId = idSource('');

/** What a quote token locks: decoded only from a token whose tag verifies. */
export interface Quote {
  /** Unique id of the quote (part of the token). */
  id: string;
  agencyId: string;
  product: Product;
  amount: number;
  currency: string;
  expiresAt: number;
  /** Digest of the search criteria and the offer index, to find the live price. */
  digest: string;
  index: number;
}

/**
 * Issues and redeems quote tokens. A token carries its quote, tagged with an
 * HMAC under a key that only this mock holds (and that `reset()` renews), so
 * searches cost no memory and a tampered token never verifies. Only
 * redemptions are stored, until their quote expires.
 */
export class QuoteBook {
  private key = randomBytes(32);
  /** quote id → booking id (or '' while a booking holds it). */
  private readonly redeemed = new Map<string, { bookingId: string; expiresAt: number }>();

  /** A fresh token for `quote` (without id: one is drawn). */
  issue(q: Omit<Quote, 'id'>): { token: string; quote: Quote } {
    const quote: Quote = { id: nextQuoteId(), ...q };
    const payload = Buffer.from(
      JSON.stringify([quote.id, quote.agencyId, quote.product, quote.amount, quote.currency, quote.expiresAt, quote.digest, quote.index]),
    ).toString('base64url');
    return { token: `qt_${payload}.${this.tag(payload)}`, quote };
  }

  /** The quote a token stands for, or undefined when it is unknown, malformed or (when `verify`) tampered with. */
  open(token: string, verify = true): Quote | undefined {
    if (typeof token !== 'string' || !token.startsWith('qt_') || token.length > 2048) return undefined;
    const dot = token.lastIndexOf('.');
    if (dot < 0) return undefined;
    const payload = token.slice(3, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const want = Buffer.from(this.tag(payload));
    if (verify && (given.length !== want.length || !timingSafeEqual(given, want))) return undefined;
    try {
      const [id, agencyId, product, amount, currency, expiresAt, digest, index] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof product !== 'string' || !isProduct(product)) return undefined;
      return {
        id: String(id),
        agencyId: String(agencyId),
        product,
        amount: Number(amount),
        currency: String(currency),
        expiresAt: Number(expiresAt),
        digest: String(digest),
        index: Number(index),
      };
    } catch {
      return undefined;
    }
  }

  /** The booking that redeemed (or is redeeming, '') the quote, if any. */
  redeemedBy(quote: Quote, now: number): string | undefined {
    this.prune(now);
    return this.redeemed.get(quote.id)?.bookingId;
  }

  /** Holds the quote for a booking in progress, so a concurrent booking sees it taken. */
  hold(quote: Quote): void {
    this.redeemed.set(quote.id, { bookingId: '', expiresAt: quote.expiresAt });
  }

  /** Releases a hold after the booking failed: the quote stays redeemable. */
  release(quote: Quote): void {
    if (this.redeemed.get(quote.id)?.bookingId === '') this.redeemed.delete(quote.id);
  }

  /** Marks the quote redeemed by `bookingId`. */
  redeem(quote: Quote, bookingId: string): void {
    this.redeemed.set(quote.id, { bookingId, expiresAt: quote.expiresAt });
  }

  /** Forgets redemptions and renews the key, so that every earlier token becomes unknown. */
  reset(): void {
    this.redeemed.clear();
    this.key = randomBytes(32);
  }

  private tag(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 27);
  }

  private prune(now: number): void {
    // Redemptions are only needed while their quote could still be presented unexpired.
    for (const [id, r] of this.redeemed) {
      if (r.expiresAt > now || r.bookingId === '') break;
      this.redeemed.delete(id);
    }
  }
}
