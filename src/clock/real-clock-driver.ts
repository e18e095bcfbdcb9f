import { setTimeout as sleep } from 'node:timers/promises';
import type { ClockDriver } from './clock-driver.js';
import { checkInstant, instantAfter, type SteppingOptions } from './_internal/stepping.js';

/** Longest single timer node keeps; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Time at a real service: waits really wait. */
export class RealClockDriver implements ClockDriver {
  readonly kind = 'real' as const;

  /** `options.maxWaitMs` bounds every wait (a real-time wait of years is a broken Retry-After, not a plan); `options.signal` cuts every wait short. */
  constructor(private readonly options: Pick<SteppingOptions, 'maxWaitMs' | 'signal'> = {}) {}

  now(): number {
    return Date.now();
  }

  async waitUntil(instant: number): Promise<void> {
    checkInstant(instant, this.now(), this.options);
    // A timer may fire a millisecond early by the wall clock: wait again for what is left.
    for (let left = instant - this.now(); left > 0; left = instant - this.now()) {
      await sleep(Math.min(Math.ceil(left), MAX_TIMER_MS), undefined, this.options.signal ? { signal: this.options.signal } : undefined);
    }
  }

  async wait(ms: number): Promise<void> {
    return this.waitUntil(instantAfter(this.now(), ms));
  }

  fineUntil(): void {
    // Real time moves continuously: every attempt arrives when it is due.
  }
}
