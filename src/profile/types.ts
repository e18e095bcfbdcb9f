/**
 * A target profile: everything the harness knows about a service under test.
 * Its defaults (`defaults.ts`) describe the reference API; a check reads every
 * path, field location, header name, code, limit and schedule from here.
 */

/** One operation's method and path template (`{product}`, `{booking_id}`, `{reference}` are filled in). */
export interface OperationDef {
  method: string;
  path: string;
}

/** The operations of the service (paths relative to `base_url`) and of the hotel API (relative to `hotel_base_url`). */
export interface OperationsDef {
  account: OperationDef;
  search: OperationDef;
  create_booking: OperationDef;
  get_booking: OperationDef;
  cancel_booking: OperationDef;
  wallet_balance: OperationDef;
  wallet_statement: OperationDef;
  wallet_rates: OperationDef;
  get_webhook_endpoint: OperationDef;
  set_webhook_endpoint: OperationDef;
  hotel_availability: OperationDef;
  hotel_create_booking: OperationDef;
  hotel_cancel_booking: OperationDef;
  hotel_set_webhook: OperationDef;
}

/**
 * Where values live in JSON bodies, as dotted paths (`price.amount`,
 * `error.code`); a path into a list item is relative to that item.
 */
export interface FieldsDef {
  /** Account: list of products. */
  account_products: string;
  /** Account product item: product name. */
  account_product_name: string;
  /** Account product item: enabled flag. */
  account_product_enabled: string;
  /** Account: read limit per window (optional in a profile: limits may come from `limits`). */
  account_read_limit: string;
  /** Account: write limit per window. */
  account_write_limit: string;
  /** Account: currency. */
  account_currency: string;
  /** Search response: list of results. */
  search_results: string;
  /** Search result: stable id of the offer. */
  result_id: string;
  /** Search result: quote token. */
  result_quote_token: string;
  /** Search result: quote expiry instant. */
  result_quote_expires_at: string;
  /** Search result: price amount in minor units. */
  result_price_amount: string;
  /** Search result: price currency. */
  result_price_currency: string;
  /** Booking response: booking id. */
  booking_id: string;
  /** Booking response: status. */
  booking_status: string;
  /** Booking response: charged amount in minor units. */
  booking_price_amount: string;
  /** Cancellation response: refunded amount in minor units. */
  cancellation_refund_amount: string;
  /** Cancellation response: status. */
  cancellation_status: string;
  /** Balance response: balance in minor units. */
  balance_amount: string;
  /** Balance response: currency. */
  balance_currency: string;
  /** Currency rates response: the base currency (the wallet's). */
  rates_base: string;
  /** Currency rates response: the object of currency code → rate. */
  rates_rates: string;
  /** Currency rates response: when the rates were taken (RFC 3339). */
  rates_as_of: string;
  /** Statement response: entries, newest first. */
  statement_entries: string;
  /** Statement response: cursor of the next page (null/absent at the end). */
  statement_next_cursor: string;
  /** Statement entry: id. */
  entry_id: string;
  /** Statement entry: type (debit or refund). */
  entry_type: string;
  /** Statement entry: positive amount in minor units. */
  entry_amount: string;
  /** Statement entry: balance after the entry. */
  entry_balance_after: string;
  /** Statement entry: booking id. */
  entry_booking_id: string;
  /** Error envelope: code. */
  error_code: string;
  /** Error envelope: details object. */
  error_details: string;
  /** Error envelope: message. */
  error_message: string;
  /** Error envelope: request id. */
  error_request_id: string;
  /** Webhook endpoint response: url. */
  webhook_endpoint_url: string;
  /** Webhook event body: event id. */
  event_id: string;
  /** Webhook event body: event type. */
  event_type: string;
  /** Webhook event body: booking id (inside a booking event). */
  event_booking_id: string;
  /** Hotel availability: hotels list. */
  hotel_hotels: string;
  /** Hotel item: rates list. */
  hotel_rates: string;
  /** Hotel rate: rate key. */
  hotel_rate_key: string;
  /** Hotel booking: reference. */
  hotel_reference: string;
}

/** Header names, lower-case. */
export interface HeadersDef {
  authorization: string;
  timestamp: string;
  nonce: string;
  idempotency_key: string;
  idempotent_replayed: string;
  request_id: string;
  ratelimit_limit: string;
  ratelimit_remaining: string;
  ratelimit_reset: string;
  ratelimit_resource: string;
  retry_after: string;
  webhook_id: string;
  webhook_timestamp: string;
  webhook_signature: string;
  webhook_attempt: string;
  hotel_api_key: string;
  hotel_webhook_signature: string;
}

/** An expected error answer. */
export interface ErrorDef {
  status: number;
  code: string;
}

/** Every error the checks provoke, by meaning. */
export interface ErrorsDef {
  unauthenticated: ErrorDef;
  signature_invalid: ErrorDef;
  timestamp_skew: ErrorDef;
  nonce_replayed: ErrorDef;
  rate_limited: ErrorDef;
  module_not_enabled: ErrorDef;
  not_found: ErrorDef;
  method_not_allowed: ErrorDef;
  payload_too_large: ErrorDef;
  invalid_json: ErrorDef;
  validation_failed: ErrorDef;
  idempotency_key_required: ErrorDef;
  idempotency_key_reused: ErrorDef;
  idempotency_key_in_use: ErrorDef;
  quote_not_found: ErrorDef;
  quote_expired: ErrorDef;
  quote_already_redeemed: ErrorDef;
  insufficient_funds: ErrorDef;
  supplier_unavailable: ErrorDef;
  booking_already_cancelled: ErrorDef;
}

/** An agency the harness acts as. Secrets come from environment variables (`*_env`) or, for test fixtures only, literals. */
export interface AgencyDef {
  /** Agency id as the service reports it. */
  id: string;
  key_id: string;
  secret?: string;
  secret_env?: string;
  webhook_secret?: string;
  webhook_secret_env?: string;
  hotel_api_key?: string;
  hotel_api_key_env?: string;
  hotel_webhook_secret?: string;
  hotel_webhook_secret_env?: string;
  /** Limits per window; when absent they are read from the account response. */
  limits?: { read: number; write: number };
  /**
   * The organisation the agency belongs to: `certify` tries the agencies kept
   * apart only with a second agency of the same organisation (whose keys the
   * certifying party holds). @defaultValue none
   */
  organisation?: string;
}

/** An agency with its secrets resolved (never logged, redacted in reports). */
export interface ResolvedAgency {
  id: string;
  keyId: string;
  secret: string;
  webhookSecret?: string;
  hotelApiKey?: string;
  hotelWebhookSecret?: string;
  limits?: { read: number; write: number };
}

/** How the harness moves time at the target. */
export type ClockDef = { control: 'mock-admin'; admin_url: string } | { control: 'none' };

/** The whole profile, as written (snake_case, like the reference API). */
export interface Profile {
  /** A name for reports. */
  name: string;
  /** Service base address, ending in the version prefix (e.g. `http://127.0.0.1:8480/v1`). */
  base_url: string;
  /** Hotel API base address, or null when the agency has no hotel contract. */
  hotel_base_url: string | null;
  clock: ClockDef;
  /** First agency is the primary; a second one enables the "agencies apart" checks. */
  agencies: AgencyDef[];
  /** Products (verticals) that exist. */
  products: string[];
  /** Valid search criteria per product, as sent in the search body. */
  search_criteria: Record<string, Record<string, unknown>>;
  /** Search request body, with `"{criteria}"` replaced by the criteria object. */
  search_body: unknown;
  /** Booking request body; `"{quote_token}"` and `"{client_reference}"` are filled in. */
  booking_body: unknown;
  /** Cancellation request body (may be `{}`). */
  cancel_body: unknown;
  /** Hotel availability and booking bodies; `"{rate_key}"` is filled in. */
  hotel_availability_body: unknown;
  hotel_booking_body: unknown;
  /** Webhook-endpoint update body; `"{url}"` is filled in. Absent: the reference API's `{"url": "{url}"}`. */
  webhook_endpoint_body?: unknown;
  /** Hotel webhook update body; `"{url}"` is filled in. Absent: the reference API's `{"url": "{url}"}`. */
  hotel_webhook_body?: unknown;
  /** Query parameter names of the paged wallet statement. Absent: the reference API's `limit` and `cursor`. */
  statement_query?: { limit: string; cursor: string };
  operations: OperationsDef;
  fields: FieldsDef;
  headers: HeadersDef;
  errors: ErrorsDef;
  /** Values returned in enums. */
  values: {
    booking_confirmed: string;
    booking_cancelled: string;
    entry_debit: string;
    entry_refund: string;
    bucket_read: string;
    bucket_write: string;
    replayed_true: string;
  };
  limits: {
    window_s: number;
    timestamp_tolerance_s: number;
    nonce_retention_s: number;
    max_body_bytes: number;
    /** Statement page size limit used when reading the whole statement. */
    statement_page_size: number;
  };
  quotes: {
    lifetime_s: number;
  };
  /** How to make the supplier refuse a booking; null when the target offers no way. */
  failure_trigger: { client_reference_prefix: string } | null;
  webhooks: {
    /** Attempts at most (1 + retries). */
    max_attempts: number;
    base_ms: number;
    factor: number;
    delivery_timeout_ms: number;
    /** Event types for a confirmed and a cancelled booking. */
    event_booking_confirmed: string;
    event_booking_cancelled: string;
    hotel_attempts: number;
  };
  /** The harness's webhook receiver: where it binds and the URL the target should call. */
  receiver: {
    host: string;
    port: number;
    public_url: string | null;
  };
  /**
   * The service's OpenAPI 3.1 document (a file path, relative to the profile file, or an http(s) URL) that SC-01 validates every response against.
   * @defaultValue null: the bundled document of the reference API (`openapi/reference-api.yaml`)
   */
  openapi: string | null;
  /** Request timeout for every exchange, ms. */
  request_timeout_ms: number;
  /** Largest response body the client reads, bytes; a larger one is an ERROR for that exchange. */
  max_response_bytes: number;
  /**
   * Most requests a rate-limit check sends to fill one bucket: an agency whose
   * limit is higher (say an account announcing `write: 1000000000`) is not
   * filled, and the rate-limit checks are a WARN saying why.
   * @defaultValue 10000
   */
  max_fill_requests: number;
}
