import { WaitRefusedError } from '../clock-driver.js';

/** Longest wait a driver makes by default: the 24 h idempotency retention, and an hour to spare. */
export const DEFAULT_MAX_WAIT_MS = 25 * 3_600_000;

/** How a driven clock moves through a wait. */
export interface SteppingOptions {
  /** Largest single move while a webhook attempt may fall due (see `fineUntil`), so that it arrives within this of its instant. @defaultValue 1000 */
  stepMs?: number;
  /** Longest wait the driver makes; a longer one is refused with a `WaitRefusedError`. @defaultValue 25 h */
  maxWaitMs?: number;
  /** Once it aborts, every wait in progress and every later one rejects with its reason (an interrupted run is not kept waiting). */
  signal?: AbortSignal | undefined;
}

/** The instant `ms` after `now`, once `ms` is known to be a duration a wait can take. */
export function instantAfter(now: number, ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new RangeError(`wait needs a duration ≥ 0 ms, got ${String(ms)}`);
  return now + ms;
}

/** Throws when `instant` is not a number a wait can aim at, or lies further than the bound from `now`. */
export function checkInstant(instant: number, now: number, opts: SteppingOptions): void {
  opts.signal?.throwIfAborted();
  if (typeof instant !== 'number' || Number.isNaN(instant)) throw new RangeError(`waitUntil needs an instant in ms, got ${String(instant)}`);
  const bound = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (instant - now > bound) throw new WaitRefusedError(instant - now, bound);
}

/**
 * The window in which moves are fine steps: until the latest instant a caller
 * said a webhook attempt may fall due, moves are at most `stepMs`; past it, a
 * wait is one move.
 */
export class FineWindow {
  private until = Number.NEGATIVE_INFINITY;
  private readonly stepMs: number;

  constructor(opts: SteppingOptions) {
    this.stepMs = Math.max(1, opts.stepMs ?? 1000);
  }

  /** Extends the window to `instant` (never shortens it). */
  extend(instant: number): void {
    if (typeof instant === 'number' && !Number.isNaN(instant)) this.until = Math.max(this.until, instant);
  }

  /** The largest move from `now` of at most `size`: a fine step inside the window, never ending beyond its edge by more than a step. */
  cap(now: number, size: number): number {
    return now < this.until ? Math.min(size, this.stepMs) : size;
  }
}
