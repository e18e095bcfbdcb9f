/**
 * The defect catalogue: each defect breaks exactly one promise of the
 * reference API, and is switched in at exactly one place in the mock's code
 * (search for `defects.has('<name>')`).
 */
export const DEFECTS = {
  // authentication (REFERENCE-API.md section 3)
  'signature-unchecked': 'any signature is accepted for a known key id',
  'timestamp-unchecked': 'a timestamp outside the ±300 s window is accepted',
  'nonce-unchecked': 'a reused nonce is accepted',
  'unknown-key-signature-invalid': 'an unknown key id answers SIGNATURE_INVALID instead of UNAUTHENTICATED',
  'nonce-recorded-early': 'a nonce is recorded before the signature is checked, so a forged request uses up a real nonce',
  // contract (section 5)
  'contract-skip': 'GET /v1/{product}/bookings/{id} skips the contract check for a closed product (answers 404, not 403)',
  'account-lists-closed-products': 'GET /v1/account lists every product as enabled, closed ones included',
  'account-lists-unknown-product': 'GET /v1/account lists a product that does not exist (hotels)',
  'transfers-search-empty': 'a transfers search answers no results at all',
  'price-amount-as-string': 'search results carry price.amount as a string ("12345") instead of an integer',
  // errors (section 4)
  'error-outside-envelope': 'a 404 NOT_FOUND answers text/plain outside the error envelope',
  'error-request-id-mismatch': 'a 409 error names another request id in error.request_id than in X-Request-Id',
  'method-not-allowed-as-404': 'a method the route does not have answers 404 NOT_FOUND instead of 405 METHOD_NOT_ALLOWED',
  // rate limits (section 8)
  'ratelimit-headers-missing': 'responses carry no X-RateLimit-* headers',
  'ratelimit-remaining-wrong': 'X-RateLimit-Remaining is reported one higher than the truth',
  'retry-after-missing': 'a 429 carries no Retry-After header',
  'retry-after-short': 'Retry-After is 2 s shorter than the time until a slot frees (early)',
  'retry-after-long': 'Retry-After is 3 s longer than the time until a slot frees (late)',
  'limit-plus-one': 'each bucket admits limit + 1 requests per window',
  'early-throttle': 'each bucket refuses from limit - 1 admitted requests',
  'throttle-at-95': 'each bucket refuses from 95% of its limit admitted, while its headers announce the whole limit',
  'fixed-window': 'the window is a fixed clock minute instead of rolling 60 s',
  'single-bucket': 'reads and writes are counted in one bucket',
  'shared-buckets': 'all agencies share one pair of buckets',
  'ratelimit-charges': 'a booking answered 429 is still executed and charged',
  'refusals-counted': 'requests answered 429 are counted in the window, so a client that keeps retrying never gets its limit back',
  // bookings and wallet (sections 2, 5)
  'failed-booking-charges': 'a booking refused by the supplier (502) still debits the wallet',
  'cancel-no-refund': 'a cancellation does not credit the refund to the wallet',
  'statement-drops-refunds': 'the wallet statement omits refund entries although the balance has them',
  'wallet-overdraft': 'a booking above the balance is accepted and drives the wallet negative',
  'rates-missing': 'GET /v1/wallet/rates answers 404 NOT_FOUND',
  'rates-malformed': 'GET /v1/wallet/rates answers 200 with a JSON object of padding, no base, rates or as_of',
  // quotes (section 6)
  'expired-quote-accepted': 'a booking with an expired quote is accepted',
  'live-price-charged': 'a booking is charged the live price of the same search, not the locked price',
  'quote-lifetime-long': 'quotes live twice the promised lifetime',
  'quote-tag-unchecked': 'a quote token whose tag was tampered with is accepted',
  'quote-redeemable-twice': 'a quote already redeemed by a booking books again',
  // idempotency (section 7)
  'replay-books-again': 'a replay with the same key and body executes and charges again',
  'replay-differs': 'a replay answers a regenerated body instead of the stored bytes',
  'replay-ignores-body': 'the same key with another body replays the first response instead of 422',
  'booking-replay-unflagged': 'a replayed booking carries no Idempotent-Replayed header (cancellation replays do)',
  'cancel-replay-refunds-again': 'a replayed cancellation answers the stored response but credits the refund again',
  'concurrent-double': 'two concurrent requests with one key are both executed',
  'replay-emits-webhook': 'an idempotent replay emits a second webhook event',
  'idempotency-key-optional': 'a booking or cancellation without Idempotency-Key is executed instead of refused with 400',
  // webhooks of the service (section 9)
  'webhook-extra-retry': 'a failing delivery is retried three times (4 attempts)',
  'webhook-no-retry': 'a failing delivery is never retried',
  'webhook-new-id': 'each attempt carries a new X-SVC-Webhook-Id',
  'webhook-constant-backoff': 'retries come at constant delays (base, base)',
  'webhook-bad-signature': 'webhook signatures are computed with the wrong key',
  'webhook-resent-after-success': 'an event its receiver accepted at the first attempt is sent once more',
  'webhook-retries-continue': 'a retry its receiver accepted is followed by the next retry anyway',
  'cancel-event-missing': 'a cancellation emits no booking.cancelled event',
  // hotel API (section 10)
  'hotel-key-unchecked': 'the hotel API accepts any X-API-Key',
  'hotel-webhook-retried': 'a failed hotel event is retried once',
  'hotel-bad-signature': 'hotel webhook signatures are computed over the body without the timestamp',
  'hotel-double-cancel': 'a hotel booking can be cancelled twice (the second answers 200, not 409)',
  'hotel-unknown-rate-422': 'an unknown hotel rate_key answers 422 VALIDATION_FAILED instead of 404 NOT_FOUND',
  // request validation (sections 4, 5, and the OpenAPI document)
  'booking-body-unchecked': 'a booking body is read before it is validated: a field missing or of an unexpected JSON type crashes with 500',
  'validation-fields-unnamed': 'a booking refused with 422 VALIDATION_FAILED names the body, not the broken field, in details.fields',
  'invalid-booking-charges': 'a booking refused with 422 VALIDATION_FAILED still debits a processing fee of 100 minor units',
  'invalid-booking-emits-event': 'a booking refused with 422 VALIDATION_FAILED still emits the booking.confirmed event it queued first',
  'statement-limit-unchecked': 'a statement limit out of range (0, or over 200) is clamped and answered 200 instead of 422',
  'statement-cursor-not-found': 'a statement cursor the API did not issue answers 404 NOT_FOUND, which the document does not list for the statement',
  'product-method-not-found': 'a method a path under /v1/{product}/ does not have answers 404 NOT_FOUND instead of 405 METHOD_NOT_ALLOWED',
  // agencies kept apart (sections 4, 5, 7, 9, 10)
  'booking-readable-by-others': "any agency can read another agency's booking by its id",
  'cancel-by-others': "any agency can cancel another agency's booking, and the refund lands in the caller's wallet",
  'quote-shared-across-agencies': "another agency's quote token books, charged to the caller",
  'hotel-cancel-by-others': "any agency can cancel another agency's hotel booking",
  'hotel-rate-key-books-owner': 'a rate key of another agency books on the account of the agency it was issued to',
  'idempotency-scope-without-agency': "an Idempotency-Key is scoped by method and path only, so one agency replays or refuses on another agency's key",
  'webhook-to-every-agency': "the service's events are sent to every agency's webhook endpoint",
  'statement-lists-others': "an agency's wallet statement lists every agency's entries",
} as const;

/** A defect's name. */
export type DefectName = keyof typeof DEFECTS;

/** Every defect name, in catalogue order. */
export const DEFECT_NAMES = Object.keys(DEFECTS) as DefectName[];

/** True when `name` is a known defect. */
export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name);
}
