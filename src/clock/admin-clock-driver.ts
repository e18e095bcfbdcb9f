import { setTimeout as sleep } from 'node:timers/promises';
import type { ClockDriver } from './clock-driver.js';
import { createAdminClient, type AdminClient } from './admin-client.js';
import { FineWindow, checkInstant, instantAfter, type SteppingOptions } from './_internal/stepping.js';
import { OffsetBounds } from './_internal/offset-bounds.js';

/** Options of an {@link AdminClockDriver}. */
interface AdminClockOptions extends SteppingOptions {
  /** Local real time, ms since epoch (a test may slow it down or speed it up). @defaultValue Date.now */
  realNow?: () => number;
}

/** Room for a busy machine between deciding a move and the target making it, ms: the price of a wait is about this much real time. */
export const JITTER_MS = 20;

/** Round trips remembered to foresee the next one. */
const RTT_SAMPLES = 5;

/** Readings of the clock when connecting. */
const CONNECT_READINGS = 3;

/**
 * Fine step against a target that does not say when its next webhook attempt
 * falls due (`next_due_ms`): an attempt made during a move arrives when the
 * clock stands at the move's end, so this bounds how late on the target's
 * clock it is stamped.
 */
const BLIND_STEP_MS = 50;

/**
 * Drives the clock of a mock in another process, possibly across a network,
 * through its admin API.
 *
 * The mock's clock is real time plus an offset, so it runs on during every
 * round trip. The driver keeps bounds on that offset, learned from the
 * `now_ms` of each answer and the local instants the request left and the
 * answer came ({@link OffsetBounds}); `now()` needs no request of its own.
 * A mock that moves its clock to an instant (`until_ms`, read as it handles
 * the request) is moved straight to the wait's instant: one round trip a wait.
 * Against one that only moves by an amount, a wait moves the clock by what is
 * left before its instant, less the time a move may take to arrive, so that
 * no move ever lands past the instant; the last few milliseconds pass in real
 * time. The first move tells which the mock is.
 *
 * Inside a `fineUntil` window, a mock that answers `next_due_ms` (the instant
 * its next webhook attempt falls due) is moved to that instant, so each
 * attempt is made when the clock stands at its own instant, as in-process;
 * one that does not is moved in fine steps. `now()` reads the end of a move
 * while it is under way: an attempt arriving then was made after the clock
 * moved, and is stamped with the target's time, not the time before the move.
 */
export class AdminClockDriver implements ClockDriver {
  readonly kind = 'mock' as const;
  private readonly offset = new OffsetBounds();
  private readonly rtts: number[] = [];
  private readonly fine: FineWindow;
  private readonly realNow: () => number;
  /** Whether the mock moves its clock to an instant: unknown until it answers a move that asked it to. */
  private movesToInstant: boolean | undefined;
  /** The target's next due webhook attempt by its last answer: null when none waits, undefined when it did not say or may have changed since. */
  private nextDue: number | null | undefined;
  /** Where the move under way takes the target's clock, at least. */
  private movingTo: number | undefined;

  private constructor(
    readonly admin: AdminClient,
    private readonly options: AdminClockOptions,
  ) {
    this.fine = new FineWindow({ ...options, stepMs: options.stepMs ?? BLIND_STEP_MS });
    this.realNow = options.realNow ?? Date.now;
  }

  /**
   * Connects to the admin API at `adminUrl` and learns the clock's offset, from
   * a few readings: the first round trip of a process (a new connection, cold
   * code) is slow, and the offset is known only as tightly as the quickest one,
   * which is what an arrival in real time (a webhook's first attempt) is stamped by.
   */
  static async connect(adminUrl: string | AdminClient, options: AdminClockOptions = {}): Promise<AdminClockDriver> {
    const driver = new AdminClockDriver(typeof adminUrl === 'string' ? createAdminClient(adminUrl) : adminUrl, options);
    for (let i = 0; i < CONNECT_READINGS; i++) await driver.sync();
    return driver;
  }

  /** The target's time, taking the middle of what the offset may be. */
  now(): number {
    const estimate = Math.round(this.realNow() + this.offset.middle);
    return this.movingTo === undefined ? estimate : Math.max(estimate, this.movingTo);
  }

  async waitUntil(instant: number): Promise<void> {
    checkInstant(instant, this.now(), this.options);
    for (;;) {
      const t = this.realNow();
      // Until the target's clock has surely reached the instant.
      const left = instant - (t + this.offset.lowest(t));
      if (left <= 0) return;
      this.options.signal?.throwIfAborted();
      const rtt = this.typicalRtt();
      // A move costs a round trip during which the clock runs anyway: below that, real time is as fast.
      if (this.movesToInstant !== false && left > rtt) {
        // To the instant, or a fine step short of it: the target reads its clock as it moves, so the move lands there
        // however long the request took, and moves at most the step since its clock is at least `lowest`.
        const to = Math.floor(Math.min(instant, this.stopBefore(t, left)));
        // What a mock that only moves by an amount moves: short enough never to land past `to`.
        const lead = Math.ceil(1.5 * rtt) + JITTER_MS;
        const fallback = Math.max(0, Math.floor(to - (t + this.offset.highest(t)) - lead));
        const reached = await this.advance(fallback, to);
        if (reached !== undefined && reached >= instant) return;
        continue;
      }
      // What a move may add and still surely land at or before the instant, when it arrives up to `lead` from now
      // (a round trip and a half, and room for a busy event loop on either side).
      const lead = Math.ceil(1.5 * rtt) + JITTER_MS;
      const latest = t + this.offset.highest(t);
      const size = Math.floor(this.fine.cap(this.now(), instant - latest - lead));
      if (size > rtt && size >= 1) await this.advance(size, undefined, t + this.offset.lowest(t) + size);
      else await sleep(Math.max(1, Math.ceil(left)), undefined, this.options.signal ? { signal: this.options.signal } : undefined);
    }
  }

  async wait(ms: number): Promise<void> {
    return this.waitUntil(instantAfter(this.now(), ms));
  }

  fineUntil(instant: number): void {
    this.fine.extend(instant);
    // Whatever made the caller expect an attempt (a booking, a failed delivery) happened since the last answer.
    this.nextDue = undefined;
  }

  /**
   * Where a move starting at local `t` stops, `left` short of the wait's
   * instant at most: at the next due attempt inside a fine window when the
   * target said when it is, else a fine step (inside) or the instant (outside).
   */
  private stopBefore(t: number, left: number): number {
    const lowest = t + this.offset.lowest(t);
    if (this.fine.cap(this.now(), left) >= left) return lowest + left;
    if (this.nextDue === null) return lowest + left;
    if (this.nextDue !== undefined && this.nextDue > lowest) return Math.min(this.nextDue, lowest + left);
    return lowest + this.fine.cap(this.now(), left);
  }

  /** Re-reads the mock's clock. */
  async sync(): Promise<void> {
    const before = this.realNow();
    const answer = await this.admin.clock();
    const after = this.realNow();
    this.noteRtt(after - before);
    this.offset.observe(answer.now_ms, before, after);
    this.noteNextDue(answer);
  }

  /**
   * Moves the clock by `ms`, or to `untilMs` when the mock can; answers the target's time as it answered, if it said.
   * `landsAt` is where a move by `ms` takes the clock at least, when the caller knows better than `untilMs`.
   */
  private async advance(ms: number, untilMs?: number, landsAt?: number): Promise<number | undefined> {
    const before = this.realNow();
    const least = before + this.offset.lowest(before) + ms;
    this.movingTo = this.movesToInstant === true && untilMs !== undefined ? untilMs : (landsAt ?? least);
    let answer: { now_ms?: unknown; moved_ms?: unknown; next_due_ms?: unknown } | undefined;
    try {
      answer = (await this.admin.advance(ms, untilMs)) as typeof answer;
    } finally {
      this.movingTo = undefined;
    }
    const after = this.realNow();
    this.noteNextDue(answer);
    this.noteRtt(after - before);
    const moved = untilMs !== undefined && isMs(answer?.moved_ms) ? answer.moved_ms : undefined;
    if (untilMs !== undefined) this.movesToInstant = moved !== undefined;
    this.offset.shift(moved ?? ms, after);
    if (!isMs(answer?.now_ms)) return undefined;
    this.offset.observe(answer.now_ms, before, after);
    return answer.now_ms;
  }

  private noteNextDue(answer: { next_due_ms?: unknown } | undefined): void {
    const due = answer?.next_due_ms;
    this.nextDue = due === null ? null : isMs(due) ? due : undefined;
  }

  private noteRtt(ms: number): void {
    this.rtts.push(Math.max(0, ms));
    if (this.rtts.length > RTT_SAMPLES) this.rtts.shift();
  }

  /** The median of the last round trips: one slowed by webhook attempts made during a move does not count. */
  private typicalRtt(): number {
    const sorted = [...this.rtts].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  }
}

function isMs(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
