import type { Product } from '../fixture/fixture-types.js';
import { JsonText } from './json-text.js';
import { criteriaDigest, offersFor } from './pricing.js';

/** The part of a search's answer that is fixed for one clock minute: everything but tokens and expiry. */
interface PricedSearch {
  /** The criteria digest the quote tokens carry. */
  digest: string;
  /** Price of each offer, in offer order (shared: never mutated). */
  amounts: readonly number[];
  /**
   * Each offer's JSON up to the opening quote of its `quote_token` value
   * (`{"result_id":…,"product":…,"summary":…,"price":{…},"quote_token":"`),
   * as its UTF-8 bytes held one per latin1 character. Not the text itself: a
   * summary holds "→", which makes a JS string two-byte and cost a UTF-16 to
   * UTF-8 conversion on every write (seen in the profile); a one-byte string
   * of the bytes lets the whole answer be joined as a string and copied out
   * in one `Buffer.from`, instead of a native write per piece.
   */
  heads: readonly string[];
}

/** A criteria object's JSON, and the entry key it last had (for a product and currency). */
interface KnownCriteria {
  json: string;
  product: Product;
  currency: string;
  key: string;
}

/** What follows an offer's quote token: `","quote_expires_at":"` + instant + `"}`. */
const EXPIRES_KEY = '","quote_expires_at":"';
const OPEN = '{"results":[';
const CLOSE = ']}';

/**
 * The priced offers of recent searches, per criteria, currency and clock
 * minute, with their JSON already written. Same criteria and minute give the
 * same result ids, summaries and prices (REFERENCE-API.md section 5), so a
 * repeated search only adds fresh quote tokens and expiry: the profile of
 * the mock under load showed hashing, describing and stringifying the same
 * offers again as the largest part of a search. Holds one minute's searches,
 * at most `capacity` of them (oldest dropped first), so memory stays bounded.
 */
export class SearchAnswers {
  private readonly entries = new Map<string, PricedSearch>();
  private minute = Number.NaN;
  /**
   * The JSON and last entry key of criteria objects seen before: the pipeline
   * hands the same (never mutated) object for a repeated search body, whose
   * JSON and key are then not written again (nor the key's hash computed).
   */
  private readonly known = new WeakMap<object, KnownCriteria>();

  constructor(private readonly capacity = 4096) {}

  /** The priced offers of `criteria` (validated, in canonical field order) for `currency` in `minute`. */
  priced(product: Product, criteria: Record<string, string | number>, currency: string, minute: number): PricedSearch {
    if (minute !== this.minute) {
      this.entries.clear();
      this.minute = minute;
    }
    let known = this.known.get(criteria);
    if (known === undefined || known.product !== product || known.currency !== currency) {
      const json = known?.json ?? JSON.stringify(criteria);
      known = { json, product, currency, key: `${product}\n${currency}\n${json}` };
      this.known.set(criteria, known);
    }
    const key = known.key;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = price(product, criteria, known.json, currency, minute);
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
    this.minute = Number.NaN;
  }
}

function price(product: Product, criteria: Record<string, string | number>, criteriaJson: string, currency: string, minute: number): PricedSearch {
  const digest = criteriaDigest(product, criteria, criteriaJson);
  const offers = offersFor(product, criteria, minute, digest);
  const heads = offers.map((o) => {
    const known = JSON.stringify({ result_id: o.resultId, product, summary: o.summary, price: { amount: o.amount, currency } });
    return Buffer.from(`${known.slice(0, -1)},"quote_token":"`, 'utf8').toString('latin1');
  });
  return { digest, amounts: offers.map((o) => o.amount), heads };
}

/**
 * The answer `{"results":[…]}` of a search, as UTF-8 bytes: each offer's
 * cached head, its token and the expiry. Tokens and ISO instants are ASCII
 * and hold no character JSON escapes, so the bytes equal `JSON.stringify` of
 * the same results.
 */
export function searchAnswerJson(priced: PricedSearch, tokens: readonly string[], expiresIso: string): JsonText {
  const tail = `${EXPIRES_KEY}${expiresIso}"}`;
  const n = priced.heads.length;
  let text = OPEN;
  for (let i = 0; i < n; i++) text += `${i > 0 ? ',' : ''}${priced.heads[i]!}${tokens[i]!}${tail}`;
  return new JsonText(Buffer.from(text + CLOSE, 'latin1'));
}
