/** Rate-limit facts parsed from one response, by the profile's header names. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  resetS?: number;
  resource?: string;
  /** Retry-After in seconds (delay-seconds or HTTP-date converted), when present. */
  retryAfterS?: number;
  /** Raw Retry-After header text, when present. */
  retryAfterRaw?: string;
}

/** The header names (lower-case) that carry rate-limit facts; `profile.headers` fits. */
export interface RateLimitHeaderNames {
  ratelimit_limit: string;
  ratelimit_remaining: string;
  ratelimit_reset: string;
  ratelimit_resource: string;
  retry_after: string;
}

const DIGITS = /^\d+$/;
// RFC 9110 HTTP-date forms: IMF-fixdate / RFC 850 start with a day name and a comma, asctime with "Day Mon".
const HTTP_DATE = /^[A-Za-z]{3,9}, |^[A-Za-z]{3} [A-Za-z]{3} /;

/**
 * A non-negative integer header value, or `undefined` when absent or not a
 * plain run of digits (negative, decimal, empty and text values are refused,
 * so a check sees a malformed header as missing rather than guessed).
 */
export function parseNonNegativeInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!DIGITS.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * `Retry-After` in seconds: delay-seconds as is, an HTTP-date as the whole
 * seconds (rounded up, at least 0) from `nowMs` until that date; `undefined`
 * when absent or neither form.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  const seconds = parseNonNegativeInt(v);
  if (seconds !== undefined) return seconds;
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * Rate-limit facts of one response, read by the profile's header names.
 * `headers` must have lower-case names (as the client records them).
 */
export function parseRateLimit(headers: Readonly<Record<string, string>>, names: RateLimitHeaderNames, nowMs: number): RateLimitInfo {
  const info: RateLimitInfo = {};
  const limit = parseNonNegativeInt(headers[names.ratelimit_limit]);
  if (limit !== undefined) info.limit = limit;
  const remaining = parseNonNegativeInt(headers[names.ratelimit_remaining]);
  if (remaining !== undefined) info.remaining = remaining;
  const reset = parseNonNegativeInt(headers[names.ratelimit_reset]);
  if (reset !== undefined) info.resetS = reset;
  const resource = headers[names.ratelimit_resource]?.trim();
  if (resource) info.resource = resource;
  const rawRetry = headers[names.retry_after];
  if (rawRetry !== undefined) {
    info.retryAfterRaw = rawRetry;
    const retry = parseRetryAfter(rawRetry, nowMs);
    if (retry !== undefined) info.retryAfterS = retry;
  }
  return info;
}

/** True when a response carried any rate-limit header (parsable or not). */
export function hasRateLimitHeaders(headers: Readonly<Record<string, string>>, names: RateLimitHeaderNames): boolean {
  return (
    headers[names.ratelimit_limit] !== undefined ||
    headers[names.ratelimit_remaining] !== undefined ||
    headers[names.ratelimit_reset] !== undefined ||
    headers[names.ratelimit_resource] !== undefined ||
    headers[names.retry_after] !== undefined
  );
}
