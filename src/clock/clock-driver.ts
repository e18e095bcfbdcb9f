/**
 * Moves time at the target. Against the mock it advances the mock's clock;
 * against a real service it waits in real time. Every wait aims at an instant
 * on the target's clock: a driver never moves the clock past it, and resolves
 * once the target's clock has reached it.
 */
export interface ClockDriver {
  readonly kind: 'mock' | 'real';
  /** The target's current time, ms since epoch (real time plus the known offset). */
  now(): number;
  /**
   * Lets target time pass until `instant` (target ms since epoch): resolves once
   * `now()` has reached it, at once when it has passed already. A driven clock
   * is moved so that it never goes past `instant`; the last few milliseconds
   * pass in real time. Rejects with {@link WaitRefusedError} when `instant` is
   * further away than the driver's bound, rather than moving a clock by years.
   * `why` says what the wait is for (`the quote to expire`), for the progress
   * a person sees when the wait is long.
   */
  waitUntil(instant: number, why?: string): Promise<void>;
  /** `waitUntil(now() + ms)`, `now()` taken when called; `ms` must be finite and ≥ 0. */
  wait(ms: number, why?: string): Promise<void>;
  /**
   * Says that a webhook attempt may fall due until `instant`: until then a
   * driven clock moves in fine steps, so that each attempt arrives close to the
   * instant it was due. Later calls extend the window, never shorten it.
   * Nothing for a real clock, which moves continuously anyway.
   */
  fineUntil(instant: number): void;
}

/** A wait longer than the driver's bound (e.g. a `Retry-After: 99999999999`): refused instead of moving or waiting. */
export class WaitRefusedError extends RangeError {
  override readonly name = 'WaitRefusedError';

  constructor(
    /** The wait asked for, ms. */
    readonly requestedMs: number,
    /** The longest wait the driver makes, ms. */
    readonly boundMs: number,
  ) {
    super(`refused to let ${describeMs(requestedMs)} pass on the target's clock: more than the ${describeMs(boundMs)} any check needs`);
  }
}

function describeMs(ms: number): string {
  if (!Number.isFinite(ms)) return `${ms} ms`;
  const h = ms / 3_600_000;
  if (h >= 24 * 365 * 2) return `${Math.round(h / (24 * 365)).toLocaleString('en-US')} years`;
  if (h >= 48) return `${Math.round(h / 24)} days`;
  if (h >= 1) return `${Number(h.toFixed(1))} h`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Math.round(ms)} ms`;
}
