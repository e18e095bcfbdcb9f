import type { Product } from '../fixture/fixture-types.js';
import { JsonText } from './json-text.js';
import { criteriaDigest, offersFor } from './pricing.js';
import type { SearchTokens } from './quotes.js';

/** The part of a search's answer that is fixed for one clock minute: everything but tokens and expiry. */
interface PricedSearch {
  /** The criteria digest the quote tokens carry. */
  digest: string;
  /** Price of each offer, in offer order (shared: never mutated). */
  amounts: readonly number[];
  /**
   * Each offer's JSON up to the opening quote of its `quote_token` value
   * (`{"result_id":…,"product":…,"summary":…,"price":{…},"quote_token":"`),
   * as UTF-8 bytes (views of one buffer): an answer copies them as they are,
   * with no text joined and flattened per search (seen in the profile).
   */
  heads: readonly Buffer[];
}

/** A criteria object's JSON, and the entry key it last had (for a product and currency). */
interface KnownCriteria {
  json: string;
  product: Product;
  currency: string;
  key: string;
}

/** What follows an offer's quote token: `","quote_expires_at":"` + instant + `"}`. */
const EXPIRES_KEY = Buffer.from('","quote_expires_at":"', 'latin1');
const OPEN = Buffer.from('{"results":[', 'latin1');
const CLOSE = Buffer.from(']}', 'latin1');
const TOKEN_PREFIX = Buffer.from('qt_', 'latin1');

const COMMA = 0x2c;
const DOT = 0x2e;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;

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
  const texts = offers.map((o) => {
    const known = JSON.stringify({ result_id: o.resultId, product, summary: o.summary, price: { amount: o.amount, currency } });
    return `${known.slice(0, -1)},"quote_token":"`;
  });
  const bytes = Buffer.from(texts.join(''), 'utf8');
  const heads: Buffer[] = [];
  let at = 0;
  for (const text of texts) {
    const n = Buffer.byteLength(text, 'utf8');
    heads.push(bytes.subarray(at, at + n));
    at += n;
  }
  return { digest, amounts: offers.map((o) => o.amount), heads };
}

/**
 * The answer `{"results":[…]}` of a search, as UTF-8 bytes: each offer's
 * cached head, its token and the expiry, copied into one buffer. The tokens
 * and the ISO instant are ASCII and hold no character JSON escapes, so the
 * bytes equal `JSON.stringify` of the same results; the first offer's token
 * and expiry are written as text, the others' copied from it within the buffer.
 */
export function searchAnswerJson(priced: PricedSearch, tokens: SearchTokens, expiresIso: string): JsonText {
  const heads = priced.heads;
  const n = heads.length;
  const payloadLength = tokens.payload.length;
  const tagLength = tokens.tag.length;
  const tailLength = EXPIRES_KEY.length + expiresIso.length + 2;
  let total = OPEN.length + CLOSE.length;
  for (let i = 0; i < n; i++) total += (i > 0 ? 1 : 0) + heads[i]!.length + TOKEN_PREFIX.length + payloadLength + 2 + indexLength(i) + tagLength + tailLength;
  const out = Buffer.allocUnsafe(total);
  out.set(OPEN, 0);
  let at = OPEN.length;
  // Where the first offer's payload and its tag with the tail are, to be copied for the others.
  let payloadAt = 0;
  let tagAt = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) out[at++] = COMMA;
    const head = heads[i]!;
    out.set(head, at);
    at += head.length;
    out.set(TOKEN_PREFIX, at);
    at += TOKEN_PREFIX.length;
    if (i === 0) {
      payloadAt = at;
      at += out.write(tokens.payload, at, 'latin1');
    } else {
      out.copyWithin(at, payloadAt, payloadAt + payloadLength);
      at += payloadLength;
    }
    out[at++] = DOT;
    if (i < 10) out[at++] = ZERO + i;
    else at += out.write(String(i), at, 'latin1');
    out[at++] = DOT;
    if (i === 0) {
      tagAt = at;
      at += out.write(tokens.tag, at, 'latin1');
      out.set(EXPIRES_KEY, at);
      at += EXPIRES_KEY.length;
      at += out.write(expiresIso, at, 'latin1');
      out[at++] = QUOTE;
      out[at++] = CLOSE_BRACE;
    } else {
      out.copyWithin(at, tagAt, tagAt + tagLength + tailLength);
      at += tagLength + tailLength;
    }
  }
  out.set(CLOSE, at);
  return new JsonText(out);
}

/** Characters of a decimal offer index. */
function indexLength(i: number): number {
  return i < 10 ? 1 : String(i).length;
}
