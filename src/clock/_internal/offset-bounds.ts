/** How fast two real clocks may drift apart, ms per ms (100 ppm, far above what NTP-kept clocks do). */
const DRIFT = 1e-4;

/**
 * What the offset of a remote clock (its time minus local real time) may be,
 * as an interval that every answer narrows.
 *
 * An answer stamped `nowMs` was read by the remote at some local instant
 * between the request leaving (`before`) and the answer coming (`after`), so
 * the offset lies in [nowMs − after, nowMs − before]. A move of the remote
 * clock by `ms` shifts the offset by exactly `ms`, so earlier answers stay
 * good: the interval is the intersection of all of them (widened for drift),
 * as tight as the quickest round trip, however slow the later ones.
 */
export class OffsetBounds {
  private lo = 0;
  private hi = 0;
  private known = false;
  /** Local instant the interval was last narrowed; it widens by the drift from there. */
  private at = 0;

  /** The middle of the interval (0 before any answer). */
  get middle(): number {
    return (this.lo + this.hi) / 2;
  }

  /** The smallest offset the remote clock may have at local instant `t`. */
  lowest(t: number): number {
    return this.lo - this.drift(t);
  }

  /** The largest offset the remote clock may have at local instant `t`. */
  highest(t: number): number {
    return this.hi + this.drift(t);
  }

  /** Notes an answer stamped `nowMs`, sent at local `before`, received at local `after`. */
  observe(nowMs: number, before: number, after: number): void {
    // One millisecond either side: both clocks count whole milliseconds.
    const lo = nowMs - after - 1;
    const hi = nowMs - before + 1;
    const wLo = this.lowest(after);
    const wHi = this.highest(after);
    if (this.known && lo <= wHi && hi >= wLo) {
      this.lo = Math.max(lo, wLo);
      this.hi = Math.min(hi, wHi);
    } else {
      // First answer, or one the interval cannot explain (someone else moved or reset the clock): it alone counts.
      this.lo = lo;
      this.hi = hi;
    }
    this.known = true;
    this.at = after;
  }

  /** Notes that the remote clock was moved forward by `ms`, as seen at local instant `t`. */
  shift(ms: number, t: number): void {
    this.lo = this.lowest(t) + ms;
    this.hi = this.highest(t) + ms;
    this.at = t;
  }

  private drift(t: number): number {
    return this.known ? DRIFT * Math.max(0, t - this.at) : 0;
  }
}
