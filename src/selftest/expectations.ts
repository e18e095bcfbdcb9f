import type { DefectName } from '../mock/defects/catalogue.js';

/** What one defect breaks and which checks are expected to catch it. */
export interface DefectExpectation {
  /** The promise of SPEC.md / REFERENCE-API.md the defect breaks. */
  promise: string;
  /** Check ids whose clause is that promise; at least one must fail with evidence for the defect to count as caught. */
  caughtBy: readonly string[];
}

/**
 * The self-test's expectations, next to the catalogue: for every defect, the
 * promise and the checks meant to catch it. A failure of any other case is
 * collateral (shown, never counted as the catch).
 */
export const DEFECT_EXPECTATIONS: Readonly<Record<DefectName, DefectExpectation>> = {
  // authentication (REFERENCE-API.md section 3)
  'signature-unchecked': { promise: 'REF §3: a signature that does not match → 401 SIGNATURE_INVALID', caughtBy: ['AU-03'] },
  'timestamp-unchecked': { promise: 'REF §3: a timestamp more than 300 s off → 401 TIMESTAMP_SKEW', caughtBy: ['AU-04'] },
  'nonce-unchecked': { promise: 'REF §3: a nonce seen in the last 600 s → 401 NONCE_REPLAYED', caughtBy: ['AU-05'] },
  'unknown-key-signature-invalid': { promise: 'REF §3: an unknown key id → 401 UNAUTHENTICATED', caughtBy: ['AU-02'] },
  'nonce-recorded-early': { promise: 'REF §3: a nonce is recorded only once signature and timestamp pass', caughtBy: ['AU-06'] },
  // contract (section 5)
  'contract-skip': { promise: 'SPEC §1/§4, REF §5: every endpoint of a product outside the contract → 403 MODULE_NOT_ENABLED', caughtBy: ['CT-02'] },
  'account-lists-closed-products': { promise: 'SPEC §1, REF §5: the account reports as enabled exactly the products of the contract', caughtBy: ['CT-03'] },
  'account-lists-unknown-product': { promise: 'REF §2/§5: the account lists the four products that exist, no other', caughtBy: ['CT-01'] },
  'transfers-search-empty': { promise: 'SPEC §1, REF §5: every search of an open product returns 1 to 5 priced results', caughtBy: ['CT-03'] },
  'price-amount-as-string': {
    promise: 'REF §2/§5: money is {amount: integer minor units, currency}; every response conforms to the OpenAPI document',
    caughtBy: ['SC-01'],
  },
  // errors (section 4)
  'error-outside-envelope': { promise: 'SPEC §7, REF §4: every error body is the one JSON envelope', caughtBy: ['ER-01', 'ER-02'] },
  'error-request-id-mismatch': { promise: 'REF §4: error.request_id equals the X-Request-Id header', caughtBy: ['ER-01'] },
  'method-not-allowed-as-404': { promise: 'REF §4: a method the route does not have → 405 METHOD_NOT_ALLOWED', caughtBy: ['ER-02'] },
  // rate limits (section 8)
  'ratelimit-headers-missing': { promise: 'SPEC §8.4, REF §8: every authenticated response carries X-RateLimit-*', caughtBy: ['RL-07'] },
  'ratelimit-remaining-wrong': { promise: 'REF §8: X-RateLimit-Remaining counts this request', caughtBy: ['RL-07'] },
  'retry-after-missing': { promise: 'SPEC §8.5, REF §8: a 429 carries Retry-After', caughtBy: ['RL-03'] },
  'retry-after-short': { promise: 'REF §8: Retry-After is not early (a request 1.25 s before it is refused)', caughtBy: ['RL-03'] },
  'retry-after-long': { promise: 'REF §8: Retry-After is not late (a request sent after it is admitted)', caughtBy: ['RL-03'] },
  'limit-plus-one': { promise: 'REF §8: exactly `limit` requests per rolling window, not one more', caughtBy: ['RL-01'] },
  'early-throttle': { promise: 'REF §8: exactly `limit` requests per rolling window, not one fewer', caughtBy: ['RL-01'] },
  'throttle-at-95': { promise: 'REF §8: exactly `limit` requests per rolling window, not 5% fewer', caughtBy: ['RL-01'] },
  'fixed-window': { promise: 'SPEC §8.3, REF §8: the window is a rolling 60 s', caughtBy: ['RL-04'] },
  'single-bucket': { promise: 'SPEC §8.2, REF §5: reads and writes are counted separately', caughtBy: ['RL-05'] },
  'shared-buckets': { promise: 'SPEC §8.1: limits apply per agency', caughtBy: ['RL-06'] },
  'ratelimit-charges': { promise: 'SPEC §1/§7: a request answered 429 charges nothing', caughtBy: ['RL-02'] },
  'refusals-counted': { promise: 'REF §8: requests answered 429 are not counted', caughtBy: ['RL-08'] },
  // bookings and wallet (sections 2, 5)
  'failed-booking-charges': { promise: 'SPEC §1/§7, REF §5: a failed booking charges nothing', caughtBy: ['WL-03'] },
  'cancel-no-refund': { promise: 'REF §5: a cancellation refunds the full price', caughtBy: ['WL-02'] },
  'statement-drops-refunds': { promise: 'SPEC §1, REF §5: the statement reconciles with the balance, entry by entry', caughtBy: ['WL-01'] },
  'wallet-overdraft': { promise: 'REF §5: wallet balance below the price → 402 INSUFFICIENT_FUNDS, nothing charged', caughtBy: ['WL-04'] },
  'rates-missing': { promise: 'SPEC §1, REF §5: currency rates are readable (GET /v1/wallet/rates)', caughtBy: ['WL-05'] },
  'rates-malformed': { promise: 'REF §5: currency rates are {base: the wallet currency, rates: {CODE: number}, as_of}', caughtBy: ['WL-05'] },
  // quotes (section 6)
  'expired-quote-accepted': { promise: 'SPEC §1, REF §5: now ≥ quote_expires_at → 410 QUOTE_EXPIRED', caughtBy: ['QT-02'] },
  'live-price-charged': { promise: 'SPEC §1, REF §6: a booking is charged the locked quote price', caughtBy: ['QT-03'] },
  'quote-lifetime-long': { promise: 'REF §6: a quote lives the configured lifetime (900 s), no longer', caughtBy: ['QT-01'] },
  'quote-tag-unchecked': { promise: 'REF §5: a tampered quote_token → 404 QUOTE_NOT_FOUND', caughtBy: ['QT-04'] },
  'quote-redeemable-twice': { promise: 'REF §5: a quote already redeemed → 409 QUOTE_ALREADY_REDEEMED', caughtBy: ['QT-05'] },
  // idempotency (section 7)
  'replay-books-again': { promise: 'SPEC §4, REF §7: a replay executes nothing again (no second booking or charge)', caughtBy: ['ID-02', 'ID-05'] },
  'replay-differs': { promise: 'REF §7: a replay answers the stored status and body byte for byte', caughtBy: ['ID-02', 'ID-05'] },
  'replay-ignores-body': { promise: 'REF §7: same key, other body → 422 IDEMPOTENCY_KEY_REUSED', caughtBy: ['ID-03'] },
  'booking-replay-unflagged': { promise: 'REF §7: a replay carries Idempotent-Replayed: true', caughtBy: ['ID-02'] },
  'cancel-replay-refunds-again': { promise: 'SPEC §4, REF §7: a replayed cancellation executes nothing again (one refund)', caughtBy: ['ID-05'] },
  'concurrent-double': { promise: 'REF §7: same key and body while the first executes → 409 IDEMPOTENCY_KEY_IN_USE', caughtBy: ['ID-04'] },
  'replay-emits-webhook': { promise: 'REF §7/§9: an idempotent replay emits no event', caughtBy: ['WH-07'] },
  'idempotency-key-optional': { promise: 'SPEC §4, REF §7: booking and cancellation without a key → 400 IDEMPOTENCY_KEY_REQUIRED', caughtBy: ['ID-01'] },
  // webhooks of the service (section 9)
  'webhook-extra-retry': { promise: 'SPEC §6, REF §9: 3 attempts at most, never a fourth', caughtBy: ['WH-03'] },
  'webhook-no-retry': { promise: 'SPEC §6, REF §9: a failed delivery is retried twice', caughtBy: ['WH-03', 'WH-06'] },
  'webhook-new-id': { promise: 'SPEC §6, REF §9: X-SVC-Webhook-Id is the same on every attempt', caughtBy: ['WH-04'] },
  'webhook-constant-backoff': { promise: 'SPEC §6, REF §9: attempt 3 comes base × factor after attempt 2 (exponential backoff)', caughtBy: ['WH-05'] },
  'webhook-bad-signature': { promise: 'SPEC §6, REF §9: every attempt is signed with the webhook secret', caughtBy: ['WH-02'] },
  'webhook-resent-after-success': { promise: 'REF §9: delivered = a 2xx answer; a delivered event is not sent again', caughtBy: ['WH-01'] },
  'webhook-retries-continue': { promise: 'SPEC §6, REF §9: retries stop once an attempt is delivered', caughtBy: ['WH-06'] },
  'cancel-event-missing': { promise: 'REF §9: a cancellation emits booking.cancelled', caughtBy: ['WH-08'] },
  // hotel API (section 10)
  'hotel-key-unchecked': { promise: 'SPEC §5, REF §10: a missing or wrong X-API-Key → 401 UNAUTHENTICATED', caughtBy: ['HT-01'] },
  'hotel-webhook-retried': { promise: 'REF §10: a hotel event gets exactly one attempt, never retried', caughtBy: ['WH-10'] },
  'hotel-bad-signature': { promise: 'SPEC §6, REF §10: X-Webhook-Signature is HMAC of "<t>.<raw body>"', caughtBy: ['WH-09'] },
  'hotel-double-cancel': { promise: 'REF §10: a second cancellation → 409 BOOKING_ALREADY_CANCELLED', caughtBy: ['HT-02'] },
  'hotel-unknown-rate-422': { promise: 'REF §10: an unknown rate_key → 404 NOT_FOUND', caughtBy: ['HT-03'] },
  // request validation (sections 4, 5, and the OpenAPI document)
  'booking-body-unchecked': {
    promise: 'REF §4: a body that fails validation → 422 VALIDATION_FAILED; no input is answered 5xx',
    caughtBy: ['property:openapi-inputs'],
  },
  'validation-fields-unnamed': { promise: 'REF §4: a 422 VALIDATION_FAILED lists the failing fields in details.fields', caughtBy: ['property:openapi-inputs'] },
  'invalid-booking-charges': { promise: 'SPEC §1, REF §5: a failed booking charges nothing', caughtBy: ['property:openapi-inputs'] },
  'invalid-booking-emits-event': { promise: 'REF §5, §9: a failed booking leaves no booking and emits no event', caughtBy: ['property:openapi-inputs'] },
  'statement-limit-unchecked': {
    promise: 'REF §5, the OpenAPI document: a statement limit is 1 to 200; out of range → 422 VALIDATION_FAILED',
    caughtBy: ['property:openapi-inputs'],
  },
  'statement-cursor-not-found': {
    promise: 'the OpenAPI document: a statement is refused only with a status it lists (401, 422, 429)',
    caughtBy: ['property:openapi-inputs'],
  },
  'product-method-not-found': {
    promise: 'REF §4: a method the route does not have → 405 METHOD_NOT_ALLOWED, on every path',
    caughtBy: ['property:openapi-inputs'],
  },
  // agencies kept apart (sections 4, 5, 7, 9, 10)
  'booking-readable-by-others': { promise: "REF §4: another agency's booking id → 404 NOT_FOUND", caughtBy: ['IS-01'] },
  'cancel-by-others': {
    promise: "REF §4: another agency's booking id → 404 NOT_FOUND; SPEC §5: the wallet belongs to the agency (no refund to another)",
    caughtBy: ['IS-01'],
  },
  'quote-shared-across-agencies': { promise: 'REF §5: a quote_token of another agency → 404 QUOTE_NOT_FOUND, nothing charged', caughtBy: ['IS-02'] },
  'hotel-cancel-by-others': { promise: "REF §4/§10: another agency's hotel booking is unknown to it → 404 NOT_FOUND", caughtBy: ['IS-03'] },
  'hotel-rate-key-books-owner': {
    promise: 'SPEC §5, REF §10: a hotel booking belongs to the agency whose key made it, never to another',
    caughtBy: ['IS-04'],
  },
  'idempotency-scope-without-agency': { promise: 'REF §7: the scope of an Idempotency-Key is (agency, method, path)', caughtBy: ['IS-05'] },
  'webhook-to-every-agency': { promise: "REF §9: one endpoint per agency: an agency's events go to its own endpoint only", caughtBy: ['IS-06'] },
  'statement-lists-others': { promise: "SPEC §1/§5, REF §5: an agency's statement lists its own wallet's entries only", caughtBy: ['IS-07'] },
};

/**
 * Checks that no defect needs (no defect is caught by them alone), with the
 * reason they stay in the suite. The self-test lists any other such check as
 * a gap.
 */
export const CHECKS_WITHOUT_OWN_DEFECT: Readonly<Record<string, string>> = {
  'AU-01':
    'the baseline: a defect that refuses correctly signed requests fails nearly every check at once, so no defect can be caught by AU-01 alone; it stays to say plainly why everything else failed (it is the first check read in a report).',
  'HT-04':
    'hotel errors in the envelope: ER-01 judges every error response of the run, hotel ones included, so any envelope defect HT-04 sees, ER-01 sees too; HT-04 stays for `--only hotel` runs, which do not select ER-01.',
};
