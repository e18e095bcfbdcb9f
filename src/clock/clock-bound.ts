import type { Profile } from '../profile/index.js';
import { DEFAULT_MAX_WAIT_MS } from './_internal/stepping.js';

/**
 * The longest wait a clock driver makes for a run against `profile`: twice the
 * longest wait the profile can call for (quote lifetime, rate window, nonce
 * retention, webhook schedule), and never less than 25 h (the 24 h idempotency
 * retention). A longer wait comes from a broken answer, such as
 * `Retry-After: 99999999999`, and is refused rather than made.
 */
export function clockBoundMs(profile: Readonly<Profile>): number {
  const w = profile.webhooks;
  let schedule = 0;
  for (let k = 0; k < w.max_attempts; k++) schedule += w.base_ms * w.factor ** k;
  const longest = Math.max(
    profile.quotes.lifetime_s * 1000,
    profile.limits.window_s * 1000,
    profile.limits.nonce_retention_s * 1000,
    schedule + w.delivery_timeout_ms,
  );
  const bound = Math.max(DEFAULT_MAX_WAIT_MS, 2 * longest);
  return Number.isFinite(bound) ? bound : DEFAULT_MAX_WAIT_MS;
}
