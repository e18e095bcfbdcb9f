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

export { judgeExactLimit } from './exact-limit.js';
export { judgeRefusalChargesNothing } from './refusal-charges-nothing.js';
export type { WalletView } from '../_internal/rl-episode.js';
export { judgeRetryAfter } from './retry-after.js';
export { judgeRollingWindow } from './rolling-window.js';
export { judgeBucketsApart } from './buckets-apart.js';
export { judgeAgenciesApart } from './agencies-apart.js';
export { judgeRateLimitHeaders } from './ratelimit-headers.js';
export { judgeRefusalsNotCounted } from './refusals-not-counted.js';
