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
  // contract (section 5)
  'contract-skip': 'GET /v1/{product}/bookings/{id} skips the contract check for a closed product (answers 404, not 403)',
  // errors (section 4)
  'error-outside-envelope': 'a 404 NOT_FOUND answers text/plain outside the error envelope',
  // rate limits (section 8)
  'ratelimit-headers-missing': 'responses carry no X-RateLimit-* headers',
  'ratelimit-remaining-wrong': 'X-RateLimit-Remaining is reported one higher than the truth',
  'retry-after-missing': 'a 429 carries no Retry-After header',
  'retry-after-short': 'Retry-After is 2 s shorter than the time until a slot frees (early)',
  'retry-after-long': 'Retry-After is 3 s longer than the time until a slot frees (late)',
  'limit-plus-one': 'each bucket admits limit + 1 requests per window',
  'early-throttle': 'each bucket refuses from limit - 1 admitted requests',
  'fixed-window': 'the window is a fixed clock minute instead of rolling 60 s',
  'single-bucket': 'reads and writes are counted in one bucket',
  'shared-buckets': 'all agencies share one pair of buckets',
  'ratelimit-charges': 'a booking answered 429 is still executed and charged',
  // bookings and wallet (sections 2, 5)
  'failed-booking-charges': 'a booking refused by the supplier (502) still debits the wallet',
  'cancel-no-refund': 'a cancellation does not credit the refund to the wallet',
  'statement-drops-refunds': 'the wallet statement omits refund entries although the balance has them',
  // quotes (section 6)
  'expired-quote-accepted': 'a booking with an expired quote is accepted',
  'live-price-charged': 'a booking is charged the live price of the same search, not the locked price',
  // idempotency (section 7)
  'replay-books-again': 'a replay with the same key and body executes and charges again',
  'replay-differs': 'a replay answers a regenerated body instead of the stored bytes',
  'replay-ignores-body': 'the same key with another body replays the first response instead of 422',
  'concurrent-double': 'two concurrent requests with one key are both executed',
  'replay-emits-webhook': 'an idempotent replay emits a second webhook event',
  // webhooks of the service (section 9)
  'webhook-extra-retry': 'a failing delivery is retried three times (4 attempts)',
  'webhook-no-retry': 'a failing delivery is never retried',
  'webhook-new-id': 'each attempt carries a new X-SVC-Webhook-Id',
  'webhook-constant-backoff': 'retries come at constant delays (base, base)',
  'webhook-bad-signature': 'webhook signatures are computed with the wrong key',
  // hotel API (section 10)
  'hotel-key-unchecked': 'the hotel API accepts any X-API-Key',
  'hotel-webhook-retried': 'a failed hotel event is retried once',
  'hotel-bad-signature': 'hotel webhook signatures are computed over the body without the timestamp',
} as const;

/** A defect's name. */
export type DefectName = keyof typeof DEFECTS;

/** Every defect name, in catalogue order. */
export const DEFECT_NAMES = Object.keys(DEFECTS) as DefectName[];

/** True when `name` is a known defect. */
export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name);
}
