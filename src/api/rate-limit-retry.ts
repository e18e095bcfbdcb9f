import type { RetryPolicy } from '../client/retry-after-interceptor.js';
import type { Profile } from '../profile/index.js';

/** What a caller says of its retries; the profile says the rest. */
interface RateLimitRetryOptions {
  /** Waits on the target's clock (the clock driver's `wait`, or moving the embedded mock's clock). */
  wait: (ms: number) => Promise<void>;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait when a refusal carries no readable Retry-After, ms. @defaultValue one rate-limit window */
  fallbackWaitMs?: number;
  /** Added to every wait, ms. @defaultValue 0 */
  marginMs?: number;
  /** Target clock, ms since epoch. @defaultValue `Date.now` */
  now?: () => number;
  /** Told before each wait. */
  onRetry?: RetryPolicy['onRetry'];
  /** Most ms waited for one request over all its attempts; a longer Retry-After is the answer, not a wait. @defaultValue no bound but one wait of two windows */
  budgetMs?: number;
}

/**
 * The retry policy for waiting out rate-limit refusals of the profile's
 * service: its refusal status and Retry-After header, and no single wait
 * longer than two windows (a Retry-After beyond that is wrong, and waiting it
 * out would only stall the run).
 */
export function rateLimitRetry(profile: Profile, o: RateLimitRetryOptions): RetryPolicy {
  const windowMs = profile.limits.window_s * 1000;
  const marginMs = o.marginMs ?? 0;
  const policy: RetryPolicy = {
    maxAttempts: o.maxAttempts,
    maxWaitMs: 2 * windowMs + marginMs,
    wait: o.wait,
    fallbackWaitMs: o.fallbackWaitMs ?? windowMs,
    statuses: [profile.errors.rate_limited.status],
    retryAfterHeader: profile.headers.retry_after.toLowerCase(),
    marginMs,
  };
  if (o.now) policy.now = o.now;
  if (o.onRetry) policy.onRetry = o.onRetry;
  if (o.budgetMs !== undefined) policy.budgetMs = o.budgetMs;
  return policy;
}
