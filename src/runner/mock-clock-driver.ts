import type { MockClock } from '../clock/mock-clock.js';
import type { ClockDriver } from './clock-driver.js';
import { steps, type SteppingOptions } from './_internal/stepping.js';

/** Drives the clock of an embedded (in-process) mock: waits are instant moves of its clock. */
export class MockClockDriver implements ClockDriver {
  readonly kind = 'mock' as const;

  private readonly move: (ms: number) => Promise<void>;

  /**
   * `options.advance` is the mock's own advance when it has one (it also waits
   * for webhook attempts in flight); by default the clock's.
   */
  constructor(
    private readonly clock: MockClock,
    private readonly options: SteppingOptions & { advance?: (ms: number) => Promise<void> } = {},
  ) {
    this.move = options.advance ?? ((ms) => clock.advance(ms));
  }

  now(): number {
    return this.clock.now();
  }

  /** Moves the mock's clock by `ms`, in steps of at most a second while timers are pending, so each due attempt runs close to its instant. */
  async wait(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`wait needs a duration ≥ 0 ms, got ${ms}`);
    let left = ms;
    for (const size of steps(ms, this.options)) {
      if (this.clock.pending === 0) break;
      await this.move(size);
      left -= size;
    }
    if (left > 0) await this.move(left);
  }
}
