import { setTimeout as sleep } from 'node:timers/promises';
import type { ClockDriver } from './clock-driver.js';

/** Time at a real service: waits really wait. */
export class RealClockDriver implements ClockDriver {
  readonly kind = 'real' as const;

  now(): number {
    return Date.now();
  }

  async wait(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`wait needs a duration ≥ 0 ms, got ${ms}`);
    if (ms > 0) await sleep(ms);
  }
}
