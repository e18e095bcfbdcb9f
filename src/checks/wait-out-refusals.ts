import { rateLimitRetry } from '../api/rate-limit-retry.js';
import { withRetryPolicy } from '../client/retry-scope.js';
import type { CheckContext } from './types.js';

/** Margin added to every Retry-After wait, ms (the answer's own travel time). */
const MARGIN_MS = 250;

/**
 * Runs `call`; every request it sends that the target answers rate-limited
 * is sent again once the answer's Retry-After has passed (on the target's
 * clock), up to three attempts in all. A 429 executes and stores nothing, so
 * the retry is safe; each attempt stays in the evidence. Each wait is logged,
 * after `logPrefix` when given.
 */
export function waitOutRefusals<T>(ctx: Pick<CheckContext, 'profile' | 'clock' | 'log'>, call: () => Promise<T>, logPrefix = ''): Promise<T> {
  const policy = rateLimitRetry(ctx.profile, {
    wait: (ms) => ctx.clock.wait(ms, 'the Retry-After of a 429'),
    now: () => ctx.clock.now(),
    maxAttempts: 3,
    marginMs: MARGIN_MS,
    onRetry: ({ attempt, waitMs }) => ctx.log(`${logPrefix}rate limited (attempt ${attempt}); waiting ${(waitMs - MARGIN_MS) / 1000} s before sending again`),
  });
  return withRetryPolicy(policy, call);
}
