import type { ApiResponse } from '../../src/api/types.js';
import type { ClockDriver } from '../../src/clock/clock-driver.js';

/** How soon a slot must free for {@link RateBudget.room} to wait for it rather than a whole window, ms. */
const SOON_MS = 5_000;

/** Requests of a bucket a budget keeps in reserve by default, for a remaining count that runs one high. */
export const BUDGET_MARGIN = 2;

/** A rate-limit bucket of one agency. */
export type Bucket = 'read' | 'write';

/**
 * Keeps a property's own requests inside the agency's rate limits, so that a
 * 429 is only ever seen where a property provokes one on purpose: it follows
 * `X-RateLimit-Remaining` (or counts requests when the target sends none) and
 * waits a whole window when the next run would not fit. Unknown usage counts
 * as a full bucket: the first run of a property starts after one window.
 */
export class RateBudget {
  private readonly used: Record<Bucket, number>;
  /** When the target said a slot of each bucket frees next (its reset), on the clock; undefined when it did not. */
  private readonly freesAt: Record<Bucket, number | undefined> = { read: undefined, write: undefined };

  constructor(
    private readonly clock: ClockDriver,
    readonly limits: Readonly<Record<Bucket, number>>,
    private readonly windowMs: number,
    private readonly names: { read: string; write: string },
    /** Requests kept in reserve, for a remaining count that runs one high. */
    private readonly margin = BUDGET_MARGIN,
    /** Told why a whole window is waited (the counts that did not fit). */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.used = { read: limits.read, write: limits.write };
  }

  /** Notes one response of `bucket`: its remaining count when it reports one, else one more request. */
  observe(res: ApiResponse, bucket: Bucket): void {
    const named = res.rateLimit.resource === this.names.read ? 'read' : res.rateLimit.resource === this.names.write ? 'write' : bucket;
    if (res.rateLimit.remaining !== undefined) this.used[named] = Math.max(0, this.limits[named] - res.rateLimit.remaining);
    else this.used[named] += 1;
    this.freesAt[named] = res.rateLimit.resetS !== undefined ? this.clock.now() + res.rateLimit.resetS * 1000 : undefined;
  }

  /** Marks a bucket as empty (nothing was sent to it for a whole window). */
  empty(bucket: Bucket): void {
    this.used[bucket] = 0;
  }

  /** Requests of `bucket` that fit now, the margin kept. */
  free(bucket: Bucket): number {
    return Math.max(0, this.limits[bucket] - this.used[bucket] - this.margin);
  }

  /** Marks a bucket as full (it was filled on purpose). */
  full(bucket: Bucket): void {
    this.used[bucket] = this.limits[bucket];
  }

  /** True when both buckets are known empty (a whole window passed since the last request counted). */
  isEmpty(): boolean {
    return this.used.read === 0 && this.used.write === 0;
  }

  /** True when `n` more requests of `bucket` fit. */
  fits(bucket: Bucket, n: number): boolean {
    return this.used[bucket] + n + this.margin <= this.limits[bucket];
  }

  /** Waits a window when the requests a run needs do not fit. */
  async ensure(need: Partial<Record<Bucket, number>>): Promise<void> {
    const short = (Object.keys(need) as Bucket[]).filter((b) => !this.fits(b, need[b] ?? 0));
    if (short.length > 0) await this.waitWindow(this.shortOf(short, need));
  }

  /** Why `need` does not fit: each short bucket's count, need and limit. */
  private shortOf(short: readonly Bucket[], need: Partial<Record<Bucket, number>>): string {
    return short
      .map((b) => `the ${b} bucket at ${this.used[b]} of ${this.limits[b]} as last counted, ${need[b] ?? 0} more needed and ${this.margin} kept in reserve`)
      .join('; ');
  }

  /**
   * Waits until the requests `need` fits: where the target said a slot frees
   * within a few seconds (requests just leaving the window), it waits for
   * that and measures the bucket again (`measure`, at most three times);
   * else, or when still short, a whole window. True when a whole window passed.
   */
  async room(need: Partial<Record<Bucket, number>>, measure: (bucket: Bucket) => Promise<void>): Promise<boolean> {
    const short = (): Bucket[] => (Object.keys(need) as Bucket[]).filter((b) => !this.fits(b, need[b] ?? 0));
    for (let tries = 0; tries < 3 && short().length > 0; tries++) {
      const bucket = short()[0]!;
      const at = this.freesAt[bucket];
      if (at === undefined || at - this.clock.now() > SOON_MS) break;
      await this.clock.wait(Math.max(0, at - this.clock.now()) + 250, 'a slot of the window to free');
      await measure(bucket);
    }
    if (short().length === 0) return false;
    await this.waitWindow(this.shortOf(short(), need));
    return true;
  }

  /** Lets a whole window pass (`why`: the counts that did not fit): both buckets are empty afterwards. */
  async waitWindow(why?: string): Promise<void> {
    if (why !== undefined) this.log(`waiting a window: ${why}`);
    await this.clock.wait(this.windowSpanMs, 'a window, both buckets to empty');
    this.used.read = 0;
    this.used.write = 0;
  }

  /** What {@link waitWindow} waits, ms. */
  get windowSpanMs(): number {
    return this.windowMs + 1_000;
  }

  /** Notes time that passed for another reason; a whole window empties both buckets. */
  waited(ms: number): void {
    if (ms >= this.windowMs) {
      this.used.read = 0;
      this.used.write = 0;
    }
  }
}
