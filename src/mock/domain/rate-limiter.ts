import type { DefectSet } from '../defects/defect-set.js';
import { TimestampRing } from './timestamp-ring.js';

/** The two buckets of an agency (REFERENCE-API.md section 5). */
export type Resource = 'read' | 'write';

/** Length of the rolling window unless the mock is told otherwise (REFERENCE-API.md section 8). */
const WINDOW_MS = 60_000;

/** The limiter's verdict on one request, with what the X-RateLimit-* headers report. */
export interface RateDecision {
  admitted: boolean;
  resource: Resource;
  limit: number;
  /** Requests left in the window after counting this one. */
  remaining: number;
  /** Whole seconds, rounded up, until a slot frees; 0 while remaining > 0. */
  resetS: number;
  /** On refusal: whole seconds, rounded up, until the next request is admitted (at least 1). */
  retryAfterS: number;
}

/** The bucket keys of one agency key (an agency id, or `*` when buckets are shared). */
interface BucketKeys {
  read: string;
  write: string;
  all: string;
}

interface FixedWindow {
  start: number;
  count: number;
}

/**
 * Exact rolling-window limiter (REFERENCE-API.md section 8): a request at t is
 * admitted when fewer than `limit` requests of its bucket were admitted in
 * (t − window, t] (60 s by default). Each bucket keeps at most `limit` timestamps, so memory is
 * bounded whatever the traffic. Refused requests are not counted.
 */
export class RateLimiter {
  private readonly rings = new Map<string, TimestampRing>();
  private readonly fixed = new Map<string, FixedWindow>();
  /**
   * Each agency key's bucket keys, made once: a key joined per request was a
   * fresh string, flattened and hashed again by every lookup of its bucket.
   */
  private readonly keys = new Map<string, BucketKeys>();

  constructor(
    private readonly defects: DefectSet,
    /** Length of the rolling window, ms. */
    readonly windowMs: number = WINDOW_MS,
  ) {}

  /** Judges and (when admitted) counts one request of `agencyId` in `resource`. */
  take(agencyId: string, resource: Resource, limit: number, now: number): RateDecision {
    const d = this.defects;
    const agencyKey = d.has('shared-buckets') ? '*' : agencyId;
    let keys = this.keys.get(agencyKey);
    if (keys === undefined) {
      keys = { read: `${agencyKey}\nread`, write: `${agencyKey}\nwrite`, all: `${agencyKey}\nall` };
      this.keys.set(agencyKey, keys);
    }
    const bucketKey = d.has('single-bucket') ? keys.all : keys[resource];
    const effective = d.has('limit-plus-one')
      ? limit + 1
      : d.has('early-throttle')
        ? Math.max(1, limit - 1)
        : d.has('throttle-at-95')
          ? Math.max(1, Math.floor(limit * 0.95))
          : limit;

    const windowMs = this.windowMs;
    let admitted: boolean;
    let used: number;
    let untilFreeMs: number;
    if (d.has('fixed-window')) {
      const start = Math.floor(now / windowMs) * windowMs;
      let w = this.fixed.get(bucketKey);
      if (!w || w.start !== start) {
        w = { start, count: 0 };
        this.fixed.set(bucketKey, w);
      }
      admitted = w.count < effective;
      if (admitted) w.count += 1;
      used = w.count;
      untilFreeMs = start + windowMs - now;
    } else {
      let ring = this.rings.get(bucketKey);
      if (!ring || ring.capacity < effective) {
        const bigger = new TimestampRing(effective);
        if (ring) for (const t of ring.values()) bigger.push(t);
        ring = bigger;
        this.rings.set(bucketKey, ring);
      }
      ring.dropUpTo(now - windowMs);
      admitted = ring.size < effective;
      if (admitted) ring.push(now);
      else if (d.has('refusals-counted')) {
        // Counting a refusal: the bucket keeps the newest `limit` requests, admitted or not.
        const newer = new TimestampRing(ring.capacity);
        for (const t of ring.values().slice(1)) newer.push(t);
        newer.push(now);
        ring = newer;
        this.rings.set(bucketKey, ring);
      }
      used = ring.size;
      const oldest = ring.oldest();
      untilFreeMs = oldest === undefined ? 0 : oldest + windowMs - now;
    }
    const remaining = Math.max(0, limit - used);
    const resetS = remaining > 0 ? 0 : Math.max(0, Math.ceil(untilFreeMs / 1000));
    let retryAfterS = Math.max(1, Math.ceil(untilFreeMs / 1000));
    if (d.has('retry-after-short')) retryAfterS = Math.max(1, retryAfterS - 2);
    if (d.has('retry-after-long')) retryAfterS += 3;
    return { admitted, resource, limit, remaining, resetS, retryAfterS };
  }

  /**
   * After the clock was put back (`POST /__admin/clock/reset`): a request
   * admitted on the clock that ran ahead counts as admitted `now`, so it frees
   * its slot within one window instead of holding the bucket until the clock
   * that no longer exists comes round (a read answered Retry-After 19553 s).
   */
  clampTo(now: number): void {
    for (const ring of this.rings.values()) ring.clampTo(now);
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    for (const w of this.fixed.values()) if (w.start > start) w.start = start;
  }

  /** Forgets every window. */
  clear(): void {
    this.rings.clear();
    this.fixed.clear();
    this.keys.clear();
  }
}
