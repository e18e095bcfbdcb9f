import type { ClockDriver } from './clock-driver.js';
import { checkInstant, instantAfter, type SteppingOptions } from './_internal/stepping.js';

interface Timer {
  at: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * A clock of its own, for playing a real-time schedule in no time: a wait
 * resolves once every task is blocked (the microtask queue has settled, seen
 * from a `setImmediate`) and virtual time has been advanced to the earliest
 * instant waited for; every wait due at that instant resolves together (a
 * wait of 0 too: it lets every task settle at the instant). Only
 * for code that waits on nothing but this clock and promises: real I/O would
 * be overtaken. It reads as a real clock: it cannot be moved by anyone.
 */
export class VirtualClockDriver implements ClockDriver {
  readonly kind = 'real' as const;

  private t: number;
  private timers: Timer[] = [];
  private stepping = false;
  private stopped = false;

  /** `options.signal` rejects every wait in progress and every later one. */
  constructor(
    start = 0,
    private readonly options: Pick<SteppingOptions, 'signal'> = {},
  ) {
    this.t = start;
    options.signal?.addEventListener(
      'abort',
      () => {
        const reason: unknown = options.signal?.reason;
        for (const timer of this.timers.splice(0)) timer.reject(reason);
      },
      { once: true },
    );
  }

  now(): number {
    return this.t;
  }

  waitUntil(instant: number): Promise<void> {
    try {
      checkInstant(instant, this.t, { maxWaitMs: Number.POSITIVE_INFINITY, ...this.options });
    } catch (err) {
      return Promise.reject(err);
    }
    // One due already resolves with the next step too: once every task has settled at this instant.
    return new Promise<void>((resolve, reject) => {
      if (this.stopped) return;
      this.timers.push({ at: Math.max(instant, this.t), resolve, reject });
      this.step();
    });
  }

  wait(ms: number): Promise<void> {
    try {
      return this.waitUntil(instantAfter(this.t, ms));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  fineUntil(): void {
    // Virtual time jumps from one instant waited for to the next: every attempt is on time.
  }

  /** Drops the waits still pending (they never resolve): the play is over. */
  stop(): void {
    this.stopped = true;
    this.timers = [];
  }

  /** After the microtasks in flight have settled, moves to the earliest instant waited for and resolves its waits. */
  private step(): void {
    if (this.stepping) return;
    this.stepping = true;
    setImmediate(() => {
      this.stepping = false;
      if (this.stopped || this.timers.length === 0) return;
      const at = Math.min(...this.timers.map((x) => x.at));
      this.t = Math.max(this.t, at);
      const due = this.timers.filter((x) => x.at <= this.t);
      this.timers = this.timers.filter((x) => x.at > this.t);
      for (const timer of due) timer.resolve();
      if (this.timers.length > 0) this.step();
    });
  }
}
