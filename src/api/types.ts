import type { Exchange } from '../client/exchange.js';
import type { RateLimitInfo } from '../client/rate-limit.js';
import type { SigningOverrides } from '../client/signing-interceptor.js';

/** A response with its parsed JSON (undefined when not JSON) and the exchange that carried it. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Raw body text. */
  text: string;
  /** Raw body bytes. */
  bytes: Buffer;
  json: T | undefined;
  rateLimit: RateLimitInfo;
  exchange: Exchange;
}

/** Options shared by every call. */
export interface CallOptions {
  /** Why the request is sent; shown with the evidence. */
  label?: string | undefined;
  /** Extra or overriding headers (lower-case names). */
  headers?: Record<string, string> | undefined;
  /** Override the signature inputs: a test of auth refusals needs to break them on purpose. */
  signing?: SigningOverrides | undefined;
  /** Told of every response of this call, one per attempt: refusals waited out in a retry scope come before the answer. */
  onResponse?: ((res: ApiResponse) => void) | undefined;
}

/** A priced offer, read from a search result by the profile's field paths. */
export interface Offer {
  resultId: string | undefined;
  quoteToken: string;
  quoteExpiresAt: string | undefined;
  priceAmount: number | undefined;
  currency: string | undefined;
  raw: unknown;
}

/**
 * The service, as one agency sees it, driven entirely by the target profile:
 * every path, field, header and code comes from the profile.
 */
export interface TargetApi {
  readonly agencyId: string;
  /** Any signed request to the service; `path` is relative to base_url (e.g. `/account`). */
  raw(method: string, path: string, body?: string | Buffer | unknown, opts?: CallOptions & { query?: string | undefined }): Promise<ApiResponse>;
  account(opts?: CallOptions): Promise<ApiResponse>;
  /** Open products per the account response. */
  openProducts(opts?: CallOptions): Promise<{ open: string[]; closed: string[]; response: ApiResponse }>;
  search(product: string, criteria?: Record<string, unknown>, opts?: CallOptions): Promise<ApiResponse & { offers: Offer[] }>;
  /** Books the quote; `body` overrides the profile's booking body when given (raw string to control bytes exactly). */
  book(
    product: string,
    quoteToken: string,
    idempotencyKey: string | undefined,
    opts?: CallOptions & { clientReference?: string | undefined; body?: string | undefined },
  ): Promise<ApiResponse & { bookingId?: string; chargedAmount?: number }>;
  getBooking(product: string, bookingId: string, opts?: CallOptions): Promise<ApiResponse>;
  cancel(
    product: string,
    bookingId: string,
    idempotencyKey: string | undefined,
    opts?: CallOptions & { body?: string | undefined },
  ): Promise<ApiResponse & { refundAmount?: number }>;
  /** The wallet balance in minor units, and its currency (the profile's `balance_currency`). */
  balance(opts?: CallOptions): Promise<ApiResponse & { amount?: number; currency?: string }>;
  /** Every statement entry, following cursors (newest first). */
  statement(opts?: CallOptions): Promise<{ entries: StatementEntry[]; responses: ApiResponse[] }>;
  rates(opts?: CallOptions): Promise<ApiResponse>;
  setWebhookEndpoint(url: string, opts?: CallOptions): Promise<ApiResponse>;
  getWebhookEndpoint(opts?: CallOptions): Promise<ApiResponse>;
  /** The error code of an error response, by the profile's field path. */
  errorCode(res: ApiResponse): string | undefined;
}

/** A wallet statement entry, read by the profile's field paths. */
export interface StatementEntry {
  id: string | undefined;
  type: string | undefined;
  amount: number | undefined;
  balanceAfter: number | undefined;
  bookingId: string | undefined;
  raw: unknown;
}

/** The partner hotel API, as one agency sees it. */
export interface HotelApi {
  raw(method: string, path: string, body?: string | unknown, opts?: CallOptions & { apiKey?: string | null }): Promise<ApiResponse>;
  availability(opts?: CallOptions): Promise<ApiResponse & { rateKeys: string[] }>;
  book(rateKey: string, opts?: CallOptions & { clientReference?: string | undefined }): Promise<ApiResponse & { reference?: string }>;
  cancel(reference: string, opts?: CallOptions): Promise<ApiResponse>;
  setWebhook(url: string, opts?: CallOptions): Promise<ApiResponse>;
}
