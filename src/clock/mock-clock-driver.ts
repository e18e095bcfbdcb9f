import type { MockClock } from './mock-clock.js';
import type { ClockDriver } from './clock-driver.js';
import { FineWindow, checkInstant, instantAfter, type SteppingOptions } from './_internal/stepping.js';
import { HarnessError } from '../errors/harness-error.js';

/** Drives the clock of an embedded (in-process) mock: waits are instant moves of its clock. */
export class MockClockDriver implements ClockDriver {
  readonly kind = 'mock' as const;

  private readonly move: (ms: number) => Promise<void>;
  private readonly fine: FineWindow;

  /**
   * `options.advance` is the mock's own advance when it has one (it also waits
   * for webhook attempts in flight); by default the clock's.
   */
  constructor(
    private readonly clock: MockClock,
    private readonly options: SteppingOptions & { advance?: (ms: number) => Promise<void> } = {},
  ) {
    this.move = options.advance ?? ((ms) => clock.advance(ms));
    this.fine = new FineWindow(options);
  }

  now(): number {
    return this.clock.now();
  }

  /**
   * Moves the clock to `instant`, stopping at every timer that falls due on the
   * way (so each webhook attempt is made at its own instant, not at the end of
   * the wait) and in fine steps inside a `fineUntil` window.
   */
  async waitUntil(instant: number): Promise<void> {
    checkInstant(instant, this.now(), this.options);
    for (;;) {
      const now = this.clock.now();
      const left = instant - now;
      if (left <= 0) return;
      this.options.signal?.throwIfAborted();
      let size = this.fine.cap(now, left);
      const due = this.clock.nextDueAt;
      if (due !== undefined && due > now) size = Math.min(size, due - now);
      await this.move(size);
      // Real time passed meanwhile, so the clock may have gone further, never less far.
      if (this.clock.now() < now + size)
        throw new HarnessError('E_INTERNAL', `the mock's clock did not move: asked to move ${size} ms from ${now}, it reads ${this.clock.now()}`);
    }
  }

  async wait(ms: number): Promise<void> {
    return this.waitUntil(instantAfter(this.now(), ms));
  }

  fineUntil(instant: number): void {
    this.fine.extend(instant);
  }
}
