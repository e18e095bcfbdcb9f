import { randomBytes } from 'node:crypto';
import type { MockClock } from '../../clock/mock-clock.js';
import type { DefectSet } from '../defects/defect-set.js';
import { PRODUCTS, type Fixture, type Product } from '../fixture/fixture-types.js';
import { agencyFromFixture, type Agency } from './agency.js';
import { ApiError } from './api-error.js';
import type { BookingInput } from './booking-input.js';
import { BookingStore, type BookingView, type CancellationView } from './bookings.js';
import { IdempotencyStore } from './idempotency-store.js';
import { NonceCache } from './nonce-cache.js';
import { priceAt } from './pricing.js';
import { QuoteBook } from './quotes.js';
import { RateLimiter } from './rate-limiter.js';
import { searchAnswerJson, SearchAnswers } from './search-answers.js';
import { ratesFor } from './rates.js';
import { Supplier } from './supplier.js';
import { validationFailed } from './validation.js';
import { WalletLedger } from './wallet.js';

/** An event an operation asks to emit, once its response is final. */
export interface ServiceEvent {
  type: 'booking.confirmed' | 'booking.cancelled';
  data: Record<string, unknown>;
}

/** What an operation answers. */
export interface OpResult {
  status: number;
  body: unknown;
  event?: ServiceEvent;
}

/** Where the service hands its events (the webhook dispatcher). */
type EventSink = (agency: Agency, event: ServiceEvent) => void;

/** Settings of the service's domain. */
interface MockServiceOptions {
  clock: MockClock;
  defects: DefectSet;
  fixture: Fixture;
  quoteLifetimeMs: number;
  supplierLatencyMs: number;
  /** Length of the rolling rate-limit window, ms. @defaultValue 60000 */
  windowMs?: number;
  emit: EventSink;
}

/** The last instant `iso` wrote, and its text: searches of one millisecond share their expiry (no Date per search). */
let isoMs = Number.NaN;
let isoText = '';

function iso(ms: number): string {
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString();
    isoMs = ms;
  }
  return isoText;
}

/** Defect `price-amount-as-string`: the same answer with every price amount written as text. */
function amountsAsStrings(answer: { results: { price: { amount: unknown } }[] }): unknown {
  for (const r of answer.results) r.price.amount = String(r.price.amount);
  return answer;
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

/**
 * The service's domain, free of HTTP: agencies, wallets, quotes, bookings,
 * idempotency keys, nonces and rate windows, all reading one clock.
 */
export class MockService {
  readonly clock: MockClock;
  readonly defects: DefectSet;
  readonly nonces = new NonceCache();
  readonly limiter: RateLimiter;
  readonly quotes = new QuoteBook();
  private readonly searchAnswers = new SearchAnswers();
  readonly idempotency = new IdempotencyStore();
  readonly ledger: WalletLedger;
  readonly bookings = new BookingStore();
  readonly agencies = new Map<string, Agency>();
  readonly agencyByKey = new Map<string, Agency>();
  private readonly supplier: Supplier;

  constructor(private readonly options: MockServiceOptions) {
    this.clock = options.clock;
    this.defects = options.defects;
    this.limiter = new RateLimiter(options.defects, options.windowMs);
    this.ledger = new WalletLedger(options.defects);
    this.supplier = new Supplier(options.supplierLatencyMs);
    this.reset();
  }

  /** Back to the fixture: agencies, wallets, quotes, bookings, keys, nonces, windows, endpoints. */
  reset(): void {
    this.agencies.clear();
    this.agencyByKey.clear();
    this.ledger.clear();
    for (const f of this.options.fixture.agencies) {
      const a = agencyFromFixture(f);
      this.agencies.set(a.id, a);
      this.agencyByKey.set(a.keyId, a);
      this.ledger.open(a.id, a.currency, a.openingBalance);
    }
    this.nonces.clear();
    this.limiter.clear();
    this.quotes.reset();
    this.searchAnswers.clear();
    this.idempotency.clear();
    this.bookings.clear();
  }

  /**
   * After the clock was put back to real time: whatever was stamped on the
   * clock that ran ahead (admitted requests, nonces, idempotency keys) counts
   * as stamped `now`. A quote keeps the expiry its token carries: that is a
   * promise made to the client, and its redemption is kept as long.
   */
  clampTo(now: number): void {
    this.limiter.clampTo(now);
    this.nonces.clampTo(now);
    this.idempotency.clampTo(now);
  }

  /** Hands an event to the webhook sink. */
  emit(agency: Agency, event: ServiceEvent): void {
    this.options.emit(agency, event);
  }

  /** `GET /v1/account`. */
  account(agency: Agency): OpResult {
    return {
      status: 200,
      body: {
        agency_id: agency.id,
        name: agency.name,
        currency: agency.currency,
        products: [
          ...PRODUCTS.map((product) => ({ product, enabled: this.defects.has('account-lists-closed-products') || agency.products.has(product) })),
          ...(this.defects.has('account-lists-unknown-product') ? [{ product: 'hotels', enabled: false }] : []),
        ],
        rate_limits: { read: agency.limits.read, write: agency.limits.write, window_s: this.limiter.windowMs / 1000 },
      },
    };
  }

  /** `POST /v1/{product}/search` with validated criteria; the body is the answer's JSON text. */
  search(agency: Agency, product: Product, criteria: Record<string, string | number>): OpResult {
    if (product === 'transfers' && this.defects.has('transfers-search-empty')) return { status: 200, body: { results: [] } };
    const now = this.clock.now();
    const expiresAt = now + this.options.quoteLifetimeMs * (this.defects.has('quote-lifetime-long') ? 2 : 1);
    const priced = this.searchAnswers.priced(product, criteria, agency.currency, Math.floor(now / 60_000));
    const tokens = this.quotes.issueTokens({
      agencyId: agency.id,
      product,
      currency: agency.currency,
      expiresAt,
      digest: priced.digest,
      amounts: priced.amounts,
    });
    const answer = searchAnswerJson(priced, tokens, iso(expiresAt));
    if (this.defects.has('price-amount-as-string'))
      return { status: 200, body: amountsAsStrings(answer.toJSON() as { results: { price: { amount: unknown } }[] }) };
    return { status: 200, body: answer };
  }

  /** `POST /v1/{product}/bookings`: the failures of REFERENCE-API.md section 5, in its order. */
  async book(agency: Agency, product: Product, input: BookingInput): Promise<OpResult> {
    const quote = this.quotes.open(input.quote_token, !this.defects.has('quote-tag-unchecked'));
    if (!quote || (quote.agencyId !== agency.id && !this.defects.has('quote-shared-across-agencies')))
      throw new ApiError(404, 'QUOTE_NOT_FOUND', 'no such quote_token');
    if (quote.product !== product) {
      throw validationFailed([{ field: 'quote_token', message: `belongs to a ${quote.product} search, not ${product}` }]);
    }
    const now = this.clock.now();
    if (now >= quote.expiresAt && !this.defects.has('expired-quote-accepted')) {
      throw new ApiError(410, 'QUOTE_EXPIRED', 'the quote has expired; search again', { quote_expires_at: iso(quote.expiresAt) });
    }
    if (this.quotes.redeemedBy(quote, now) !== undefined && !input.reexecute && !this.defects.has('quote-redeemable-twice'))
      throw new ApiError(409, 'QUOTE_ALREADY_REDEEMED', 'the quote was already redeemed by another booking');
    const amount = this.defects.has('live-price-charged') ? priceAt(product, quote.digest, quote.index, Math.floor(now / 60_000)) : quote.amount;
    const { balance, currency } = this.ledger.balance(agency.id);
    const overdraft = this.defects.has('wallet-overdraft');
    if (balance < amount && !overdraft) {
      throw new ApiError(402, 'INSUFFICIENT_FUNDS', 'wallet balance is below the price', {
        balance: { amount: balance, currency },
        price: { amount, currency },
      });
    }
    this.quotes.hold(quote);
    try {
      const confirmed = await this.supplier.confirm(input.client_reference);
      if (!confirmed) {
        if (this.defects.has('failed-booking-charges') && this.ledger.balance(agency.id).balance >= amount) {
          this.ledger.debit(agency.id, amount, null, this.clock.now());
        }
        throw new ApiError(502, 'SUPPLIER_UNAVAILABLE', 'the supplier refused the booking; nothing was charged');
      }
      const at = this.clock.now();
      const bookingId = newId('bk_');
      // Debit after the supplier step: a concurrent booking may have spent the balance meanwhile.
      this.ledger.debit(agency.id, amount, bookingId, at, overdraft);
      this.quotes.redeem(quote, bookingId);
      const view: BookingView = {
        booking_id: bookingId,
        product,
        status: 'confirmed',
        price: { amount, currency: agency.currency },
        client_reference: input.client_reference,
        created_at: iso(at),
      };
      this.bookings.add({ agencyId: agency.id, view, travellers: input.travellers, cancelling: false });
      return { status: 201, body: view, event: { type: 'booking.confirmed', data: { booking: { ...view } } } };
    } finally {
      this.quotes.release(quote);
    }
  }

  /**
   * The `booking.confirmed` event a booking request queues before its body is
   * validated (defect `invalid-booking-emits-event`): it names a booking id
   * the service never stores nor answers, and no price was charged.
   */
  prematureBookingEvent(agency: Agency, product: string, body: unknown): ServiceEvent {
    const reference = (body as { client_reference?: unknown } | null)?.client_reference;
    const booking = {
      booking_id: newId('bk_'),
      product,
      status: 'confirmed',
      price: { amount: 0, currency: agency.currency },
      client_reference: typeof reference === 'string' ? reference : null,
      created_at: iso(this.clock.now()),
    };
    return { type: 'booking.confirmed', data: { booking } };
  }

  /** `GET /v1/{product}/bookings/{id}`. */
  getBooking(agency: Agency, product: Product, id: string): OpResult {
    const b = this.bookings.find(agency.id, product, id) ?? (this.defects.has('booking-readable-by-others') ? this.bookings.findAny(product, id) : undefined);
    if (!b) throw new ApiError(404, 'NOT_FOUND', 'no such booking');
    return { status: 200, body: b.view };
  }

  /** `POST /v1/{product}/bookings/{id}/cancellations`: refunds the full price. */
  async cancel(agency: Agency, product: Product, id: string): Promise<OpResult> {
    // Defect `cancel-by-others`: the refund below goes to the caller's wallet, whoever paid.
    const b = this.bookings.find(agency.id, product, id) ?? (this.defects.has('cancel-by-others') ? this.bookings.findAny(product, id) : undefined);
    if (!b) throw new ApiError(404, 'NOT_FOUND', 'no such booking');
    if (b.view.status === 'cancelled' || b.cancelling) {
      throw new ApiError(409, 'BOOKING_ALREADY_CANCELLED', 'the booking is already cancelled', { booking_id: id });
    }
    b.cancelling = true;
    try {
      await this.supplier.cancel();
    } finally {
      b.cancelling = false;
    }
    const at = this.clock.now();
    if (!this.defects.has('cancel-no-refund')) this.ledger.refund(agency.id, b.view.price.amount, id, at);
    b.view.status = 'cancelled';
    const cancellation: CancellationView = {
      cancellation_id: newId('cx_'),
      booking_id: id,
      status: 'cancelled',
      refund: { ...b.view.price },
      created_at: iso(at),
    };
    b.cancellation = cancellation;
    if (this.defects.has('cancel-event-missing')) return { status: 201, body: cancellation };
    return { status: 201, body: cancellation, event: { type: 'booking.cancelled', data: { cancellation: { ...cancellation } } } };
  }

  /** `GET /v1/wallet/balance`. */
  balance(agency: Agency): OpResult {
    const { currency, balance } = this.ledger.balance(agency.id);
    return { status: 200, body: { currency, balance, as_of: iso(this.clock.now()) } };
  }

  /** `GET /v1/wallet/statement?limit=&cursor=`. */
  statement(agency: Agency, query: URLSearchParams): OpResult {
    const page = this.ledger.statement(agency.id, query.get('limit') ?? undefined, query.get('cursor') ?? undefined);
    return { status: 200, body: page };
  }

  /** `GET /v1/wallet/rates`. */
  rates(agency: Agency): OpResult {
    if (this.defects.has('rates-missing')) throw new ApiError(404, 'NOT_FOUND', 'no resource at /v1/wallet/rates');
    if (this.defects.has('rates-malformed')) return { status: 200, body: { pad: 'x'.repeat(64) } };
    return { status: 200, body: { base: agency.currency, rates: ratesFor(agency.currency), as_of: iso(this.clock.now()) } };
  }

  /** `GET /v1/webhook-endpoint`. */
  getWebhook(agency: Agency): OpResult {
    return { status: 200, body: { url: agency.webhookUrl, secret: agency.webhookSecret } };
  }

  /** `PUT /v1/webhook-endpoint`: sets the url; the secret never changes. */
  putWebhook(agency: Agency, url: string | null): OpResult {
    agency.webhookUrl = url;
    return { status: 200, body: { url: agency.webhookUrl, secret: agency.webhookSecret } };
  }
}
