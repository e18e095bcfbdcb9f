import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isProduct, type Product } from '../fixture/fixture-types.js';
import { idSource } from './fast-id.js';
import { HmacKey } from './hmac-key.js';

const nextQuoteId = idSource('');

/** Where a payload's JSON is written to be encoded: no buffer made per search (a longer payload gets its own). */
const SCRATCH = Buffer.alloc(4096);

/** base64url of `text`'s UTF-8 bytes. */
function base64url(text: string): string {
  // A UTF-16 code unit takes at most 3 UTF-8 bytes.
  if (text.length * 3 > SCRATCH.length) return Buffer.from(text).toString('base64url');
  return SCRATCH.toString('base64url', 0, SCRATCH.write(text, 0));
}

/**
 * The quote tokens of one search's offers: offer `i`'s token is
 * `qt_<payload>.<i>.<tag>` ({@link quoteToken}), the payload being the
 * base64url of the quote's JSON and the tag its MAC, both base64url
 * characters.
 */
export interface SearchTokens {
  payload: string;
  tag: string;
  /** Number of offers, and of tokens. */
  count: number;
}

/** Offer `index`'s token of a search. */
export function quoteToken(t: SearchTokens, index: number): string {
  return `qt_${t.payload}.${index}.${t.tag}`;
}

/** What a quote token locks: decoded only from a token whose tag verifies. */
interface Quote {
  /** Unique id of the quote: its search's id and its index. */
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

/** What the tokens of one search lock: everything but the offer's index and price is shared. */
interface QuoteSearch {
  agencyId: string;
  product: Product;
  currency: string;
  expiresAt: number;
  digest: string;
  /** Price of each offer, in offer order. */
  amounts: readonly number[];
}

/** The parts of a token's payload JSON a search shares with the others of its offers' list. */
interface FixedPayload {
  agencyId: string;
  product: Product;
  currency: string;
  digest: string;
  /** From after the id to before the expiry. */
  head: string;
  /** From after the expiry to the end. */
  tail: string;
}

/**
 * Issues and redeems quote tokens. A token carries its quote, tagged with an
 * HMAC under a key that only this mock holds (and that `reset()` renews), so
 * searches cost no memory and a tampered token never verifies. Only
 * redemptions are stored, until their quote expires.
 */
export class QuoteBook {
  private key = new HmacKey(randomBytes(32));
  /**
   * The payload's JSON around its id and expiry, per offers' price list (one
   * list per cached search, see `search-answers.ts`), with what it was written
   * for: a search then writes only the id and the expiry.
   */
  private readonly fixedJson = new WeakMap<readonly number[], FixedPayload>();
  /** The expiry written last, and its text: the searches of one millisecond share it. */
  private expiresAt = Number.NaN;
  private expiresText = 'null';
  /** quote id → booking id (or '' while a booking holds it). */
  private readonly redeemed = new Map<string, { bookingId: string; expiresAt: number }>();

  /**
   * Fresh tokens for the offers of one search, in offer order (see {@link SearchTokens}). The search's
   * quotes share one payload and one tag (one HMAC per search, not per offer,
   * which the search profile showed); a token adds its offer's index, so
   * changing the index only yields another token this search issued.
   */
  issueTokens(s: QuoteSearch): SearchTokens {
    let fixed = this.fixedJson.get(s.amounts);
    if (fixed === undefined || fixed.agencyId !== s.agencyId || fixed.product !== s.product || fixed.currency !== s.currency || fixed.digest !== s.digest) {
      fixed = {
        agencyId: s.agencyId,
        product: s.product,
        currency: s.currency,
        digest: s.digest,
        head: `,${JSON.stringify(s.agencyId)},${JSON.stringify(s.product)},${JSON.stringify(s.currency)},`,
        tail: `,${JSON.stringify(s.digest)},${JSON.stringify(s.amounts)}]`,
      };
      this.fixedJson.set(s.amounts, fixed);
    }
    // `JSON.stringify([id, agencyId, product, currency, expiresAt, digest, amounts])`: the id is base64url and base-36 characters.
    if (s.expiresAt !== this.expiresAt) {
      this.expiresAt = s.expiresAt;
      this.expiresText = Number.isFinite(s.expiresAt) ? String(s.expiresAt) : 'null';
    }
    const json = `["${nextQuoteId()}"${fixed.head}${this.expiresText}${fixed.tail}`;
    const payload = base64url(json);
    return { payload, tag: this.tag(payload), count: s.amounts.length };
  }

  /** Fresh tokens for the offers of one search, in offer order, as texts. */
  issue(s: QuoteSearch): string[] {
    const t = this.issueTokens(s);
    const tokens = new Array<string>(t.count);
    for (let i = 0; i < t.count; i++) tokens[i] = quoteToken(t, i);
    return tokens;
  }

  /** The quote a token stands for, or undefined when it is unknown, malformed or (when `verify`) tampered with. */
  open(token: string, verify = true): Quote | undefined {
    if (typeof token !== 'string' || !token.startsWith('qt_') || token.length > 2048) return undefined;
    const tagDot = token.lastIndexOf('.');
    const indexDot = token.lastIndexOf('.', tagDot - 1);
    if (indexDot < 3) return undefined;
    const payload = token.slice(3, indexDot);
    const indexText = token.slice(indexDot + 1, tagDot);
    if (!/^\d{1,2}$/.test(indexText)) return undefined;
    const given = Buffer.from(token.slice(tagDot + 1));
    const want = Buffer.from(this.tag(payload));
    if (verify && (given.length !== want.length || !timingSafeEqual(given, want))) return undefined;
    try {
      const [searchId, agencyId, product, currency, expiresAt, digest, amounts] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      const index = Number(indexText);
      if (typeof product !== 'string' || !isProduct(product) || !Array.isArray(amounts) || index >= amounts.length) return undefined;
      return {
        id: `${String(searchId)}.${index}`,
        agencyId: String(agencyId),
        product,
        amount: Number(amounts[index]),
        currency: String(currency),
        expiresAt: Number(expiresAt),
        digest: String(digest),
        index,
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
    this.key = new HmacKey(randomBytes(32));
  }

  private tag(payload: string): string {
    return this.key.base64url(payload).slice(0, 27);
  }

  private prune(now: number): void {
    // Redemptions are only needed while their quote could still be presented unexpired.
    for (const [id, r] of this.redeemed) {
      if (r.expiresAt > now || r.bookingId === '') break;
      this.redeemed.delete(id);
    }
  }
}
