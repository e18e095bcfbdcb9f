/** A fixed-capacity FIFO of timestamps: the admitted requests of one rate-limit bucket. */
export class TimestampRing {
  private readonly items: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Float64Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.count;
  }

  /** The oldest timestamp, or undefined when empty. */
  oldest(): number | undefined {
    return this.count === 0 ? undefined : this.items[this.head];
  }

  /** Drops timestamps `<= cutoff` from the front. */
  dropUpTo(cutoff: number): void {
    while (this.count > 0 && this.items[this.head]! <= cutoff) {
      this.head = (this.head + 1) % this.items.length;
      this.count -= 1;
    }
  }

  /** The timestamps, oldest first. */
  values(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.head + i) % this.items.length]!);
    return out;
  }

  /** Moves every timestamp later than `now` back to `now` (oldest first, so the order holds). */
  clampTo(now: number): void {
    for (let i = 0; i < this.count; i++) {
      const k = (this.head + i) % this.items.length;
      if (this.items[k]! > now) this.items[k] = now;
    }
  }

  /** Appends a timestamp; the caller keeps size below capacity. */
  push(t: number): void {
    if (this.count === this.items.length) {
      this.head = (this.head + 1) % this.items.length;
      this.count -= 1;
    }
    this.items[(this.head + this.count) % this.items.length] = t;
    this.count += 1;
  }
}
