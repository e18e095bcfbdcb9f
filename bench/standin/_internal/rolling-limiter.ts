/**
 * The exact rolling window of REFERENCE-API.md section 8: a request at t is
 * admitted when fewer than `limit` requests of its bucket were admitted in
 * (t − window, t]. `admitShare` below 1 makes a limiter that refuses early
 * (it admits only that share of the limit it advertises), for the demos
 * that must fail.
 */

/** What the limiter decided, with the values of the rate-limit headers. */
export interface Admission {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** `X-RateLimit-Reset`: whole seconds, rounded up, until a slot frees; 0 while remaining > 0. */
  resetS: number;
  /** On a refusal: `Retry-After`, at least 1. */
  retryAfterS: number;
}

class Bucket {
  private readonly times: number[] = [];
  private head = 0;

  count(now: number, windowMs: number): number {
    while (this.head < this.times.length && this.times[this.head]! <= now - windowMs) this.head++;
    if (this.head > 4096 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  /** Milliseconds until the oldest admission leaves the window. */
  untilSlot(now: number, windowMs: number): number {
    const oldest = this.times[this.head];
    return oldest === undefined ? 0 : oldest + windowMs - now;
  }

  add(now: number): void {
    this.times.push(now);
  }
}

export class RollingLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly windowMs: number,
    private readonly admitShare: number,
  ) {}

  admit(agencyId: string, resource: string, limit: number, now: number): Admission {
    const key = `${agencyId}\n${resource}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, (bucket = new Bucket()));
    const held = bucket.count(now, this.windowMs);
    const admitting = this.admitShare >= 1 ? limit : Math.floor(limit * this.admitShare);
    if (held < admitting) {
      bucket.add(now);
      const remaining = Math.max(0, limit - held - 1);
      const resetS = remaining > 0 ? 0 : Math.max(1, Math.ceil(bucket.untilSlot(now, this.windowMs) / 1000));
      return { admitted: true, limit, remaining, resetS, retryAfterS: 0 };
    }
    const retryAfterS = Math.max(1, Math.ceil(bucket.untilSlot(now, this.windowMs) / 1000));
    // A limiter that refuses early still reports what it advertises (limit − held): that is the fault.
    return { admitted: false, limit, remaining: Math.max(0, limit - held), resetS: retryAfterS, retryAfterS };
  }
}
