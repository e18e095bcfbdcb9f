/**
 * The `(key id, nonce)` pairs seen in the last `retentionMs` (600 s). Entries
 * are kept in insertion order, which is clock order, so expired ones are
 * dropped from the front and memory stays bounded by the traffic of one
 * retention period.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly retentionMs = 600_000) {}

  /** True when the pair was recorded less than `retentionMs` before `now`. */
  has(keyId: string, nonce: string, now: number): boolean {
    const at = this.seen.get(`${keyId}\n${nonce}`);
    return at !== undefined && now - at < this.retentionMs;
  }

  /** Records the pair at `now`, first dropping pairs that have expired. */
  record(keyId: string, nonce: string, now: number): void {
    this.prune(now);
    const key = `${keyId}\n${nonce}`;
    this.seen.delete(key);
    this.seen.set(key, now);
  }

  /** Forgets every pair. */
  clear(): void {
    this.seen.clear();
  }

  /** Number of pairs held. */
  get size(): number {
    return this.seen.size;
  }

  private prune(now: number): void {
    for (const [key, at] of this.seen) {
      if (now - at < this.retentionMs) break;
      this.seen.delete(key);
    }
  }
}
