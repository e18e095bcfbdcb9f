import { rateLimitRetry } from '../api/rate-limit-retry.js';
import { withRetryPolicy } from '../client/retry-scope.js';
import { boundedClock } from '../clock/max-wait.js';
import type { CheckContext } from './types.js';

/** Margin added to every Retry-After wait, ms (the answer's own travel time). */
const MARGIN_MS = 250;

/**
 * Runs `call`; every request it sends that the target answers rate-limited
 * is sent again once the answer's Retry-After has passed (on the target's
 * clock), up to three attempts in all; in real time, a wait over
 * `--max-wait` rejects with an `OverMaxWaitError` (a SKIP). A 429 executes and stores nothing, so
 * the retry is safe; each attempt stays in the evidence. Each wait is logged,
 * after `logPrefix` when given.
 */
export function waitOutRefusals<T>(ctx: Pick<CheckContext, 'profile' | 'clock' | 'log' | 'maxWaitMs'>, call: () => Promise<T>, logPrefix = ''): Promise<T> {
  // In real time a wait over --max-wait is not made: the case is a SKIP naming the bound.
  const clock = boundedClock(ctx.clock, ctx.maxWaitMs);
  const policy = rateLimitRetry(ctx.profile, {
    wait: (ms) => clock.wait(ms, 'the Retry-After of a 429'),
    now: () => ctx.clock.now(),
    maxAttempts: 3,
    marginMs: MARGIN_MS,
    onRetry: ({ attempt, waitMs }) => ctx.log(`${logPrefix}rate limited (attempt ${attempt}); waiting ${(waitMs - MARGIN_MS) / 1000} s before sending again`),
  });
  return withRetryPolicy(policy, call);
}
