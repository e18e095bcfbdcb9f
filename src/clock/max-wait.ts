/*
 * The one rule for long waits in real time (`--max-wait`): against a target
 * whose clock cannot be moved, a wait longer than the bound is not made, and
 * what would make it is a SKIP naming the bound and the flag. With clock
 * control a wait is a move of the clock: the bound never applies.
 */
import type { ClockDriver } from './clock-driver.js';

/** Longest single wait in real time by default, s (`run --max-wait`, `certify --max-wait`): a rate-limit window (60 s) and a webhook retry schedule fit it. */
export const DEFAULT_MAX_WAIT_S = 120;

/** `900 s`, `1.5 s`: a duration in seconds, as the bound's messages give it. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Why a wait of `waitMs` (for `why`, e.g. `the quote to expire`) is not
 * made: against a clock that cannot be moved (`clock.kind === 'real'`), it is
 * longer than `maxWaitMs`. Undefined when it is made: within the bound, or
 * the harness moves the target's clock. The message names the bound and the
 * flag: `waits 900 s in real time for the quote to expire, over --max-wait 120 s (…)`.
 */
export function overMaxWait(clock: Pick<ClockDriver, 'kind'>, waitMs: number, maxWaitMs = DEFAULT_MAX_WAIT_S * 1000, why?: string): string | undefined {
  if (clock.kind !== 'real' || !(waitMs > maxWaitMs)) return undefined;
  return `waits ${seconds(waitMs)} in real time${why ? ` for ${why}` : ''}, over --max-wait ${seconds(maxWaitMs)} (raise --max-wait to wait it)`;
}
