import type { Check } from '../types.js';
import { agenciesApartCheck } from './agencies-apart.js';
import { bucketsApartCheck } from './buckets-apart.js';
import { exactLimitCheck } from './exact-limit.js';
import { rateLimitHeadersCheck } from './ratelimit-headers.js';
import { refusalChargesNothingCheck } from './refusal-charges-nothing.js';
import { refusalsNotCountedCheck } from './refusals-not-counted.js';
import { retryAfterCheck } from './retry-after.js';
import { rollingWindowCheck } from './rolling-window.js';

/** The rate-limit checks (SPEC §8), in id order. */
export const ratelimitChecks: Check[] = [
  exactLimitCheck,
  refusalChargesNothingCheck,
  retryAfterCheck,
  rollingWindowCheck,
  bucketsApartCheck,
  agenciesApartCheck,
  rateLimitHeadersCheck,
  refusalsNotCountedCheck,
];

export { judgeExactLimit, type ExactLimitObservations } from './exact-limit.js';
export { judgeRefusalChargesNothing, type RefusalChargesNothingObservations, type WalletView } from './refusal-charges-nothing.js';
export { judgeRetryAfter, type RetryAfterObservations } from './retry-after.js';
export { judgeRollingWindow, type RollingWindowObservations } from './rolling-window.js';
export { judgeBucketsApart, type BucketsApartObservations } from './buckets-apart.js';
export { judgeAgenciesApart, type AgenciesApartObservations } from './agencies-apart.js';
export { judgeRateLimitHeaders, type RateLimitHeadersObservations } from './ratelimit-headers.js';
export { judgeRefusalsNotCounted, type RefusalsNotCountedObservations } from './refusals-not-counted.js';
