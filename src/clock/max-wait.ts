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

/** A wait the bound refused while a case ran (a Retry-After, a window to free): the case is a SKIP with this message, never an ERROR. */
export class OverMaxWaitError extends Error {
  override readonly name = 'OverMaxWaitError';
}

/** The refused wait behind `err` (itself, or a cause: a request's transport error wraps the wait it could not make), if any. */
export function refusedWaitOf(err: unknown): OverMaxWaitError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) if (e instanceof OverMaxWaitError) return e;
  return undefined;
}

/**
 * `clock` under the one rule: a wait it would make in real time over
 * `maxWaitMs` ({@link overMaxWait}) rejects at once with an
 * {@link OverMaxWaitError} naming the bound and what the wait was for, and
 * nothing is waited. Every other wait, and every move of a driven clock, is
 * `clock`'s own.
 */
export function boundedClock(clock: ClockDriver, maxWaitMs: number | undefined): ClockDriver {
  const refused = (ms: number, why: string | undefined): Promise<void> | undefined => {
    const over = overMaxWait(clock, ms, maxWaitMs, why);
    return over ? Promise.reject(new OverMaxWaitError(over)) : undefined;
  };
  return {
    kind: clock.kind,
    now: () => clock.now(),
    waitUntil: (instant, why) => refused(instant - clock.now(), why) ?? clock.waitUntil(instant, why),
    wait: (ms, why) => refused(ms, why) ?? clock.wait(ms, why),
    fineUntil: (instant) => clock.fineUntil(instant),
  };
}
