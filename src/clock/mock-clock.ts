/**
 * The mock's one clock: real time plus an offset that moves forward, or back to 0.
 *
 * Everything time-dependent in the mock (quote expiry, rate windows, nonce and
 * idempotency retention, webhook schedules) reads `now()`. Timers are kept
 * here rather than in `setTimeout` so that moving the clock fires every due
 * timer at once, in order, each told the instant it was due.
 */
interface Clock {
  /** Milliseconds since the Unix epoch, as this clock sees it. */
  now(): number;
}

/** A timer callback; `dueAt` is the clock instant at which it was due. */
type TimerCallback = (dueAt: number) => void | Promise<void>;

interface Timer {
  id: number;
  dueAt: number;
  seq: number;
  fn: TimerCallback;
}

/** A handle that cancels a scheduled timer. */
export interface TimerHandle {
  cancel(): void;
}

/** Real time plus an offset that moves forward (or back to 0), with timers that moving the clock fires. */
export class MockClock implements Clock {
  private offsetMs = 0;
  private timers: Timer[] = [];
  private nextId = 1;
  private seq = 0;
  private realTimer: NodeJS.Timeout | undefined;
  private firing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    return this.realNow() + this.offsetMs;
  }

  /** The offset added to real time, in milliseconds. */
  get offset(): number {
    return this.offsetMs;
  }

  /**
   * Moves the clock forward by `ms` and fires, one after the other, every timer
   * that has become due (including timers that due timers schedule, when they
   * also fall due). Resolves once they have all run.
   */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock can only move forward, got ${ms} ms`);
    this.offsetMs += ms;
    await this.fireDue();
  }

  /**
   * Puts the offset back to 0 (real time), the one move backwards the clock
   * makes, so that a mock a run has moved accepts clients that sign with the
   * real time again. A timer keeps the delay it had left (a webhook retry set
   * 5 s ahead on the clock that ran ahead is still 5 s ahead), never earlier
   * than now.
   */
  resetOffset(): void {
    const back = this.offsetMs;
    this.offsetMs = 0;
    const now = this.now();
    for (const t of this.timers) t.dueAt = Math.max(now, t.dueAt - back);
    this.timers.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    this.arm();
  }

  /** Schedules `fn` at clock instant `dueAt` (ms since epoch). */
  at(dueAt: number, fn: TimerCallback): TimerHandle {
    const timer: Timer = { id: this.nextId++, dueAt, seq: this.seq++, fn };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    this.arm();
    return { cancel: () => this.cancel(timer.id) };
  }

  /** Schedules `fn` `delayMs` after now. */
  after(delayMs: number, fn: TimerCallback): TimerHandle {
    return this.at(this.now() + delayMs, fn);
  }

  /** Number of timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** The instant the earliest timer is due at, or `undefined` when none waits. */
  get nextDueAt(): number | undefined {
    return this.timers[0]?.dueAt;
  }

  /** Drops every timer; used by reset. */
  clearTimers(): void {
    this.timers = [];
    this.arm();
  }

  /** Waits until the timers that are firing now have finished. */
  async idle(): Promise<void> {
    await this.firing;
  }

  /** Stops the real-time trigger; no timer fires after this. */
  close(): void {
    this.closed = true;
    this.timers = [];
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
  }

  private cancel(id: number): void {
    this.timers = this.timers.filter((t) => t.id !== id);
    this.arm();
  }

  private fireDue(): Promise<void> {
    // Chained so that a real-time trigger and an advance never run timers concurrently.
    const run = this.firing.then(async () => {
      for (;;) {
        const head = this.timers[0];
        if (!head || head.dueAt > this.now()) break;
        this.timers.shift();
        try {
          await head.fn(head.dueAt);
        } catch {
          // A timer's failure is its own business; the clock keeps going.
        }
      }
      this.arm();
    });
    this.firing = run.catch(() => undefined);
    return run;
  }

  private arm(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    if (this.closed) return;
    const head = this.timers[0];
    if (!head) return;
    const delay = Math.max(0, Math.min(head.dueAt - this.now(), 2 ** 31 - 1));
    this.realTimer = setTimeout(() => void this.fireDue(), delay);
    this.realTimer.unref();
  }
}
