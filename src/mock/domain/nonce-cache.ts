/** How often (clock time) every key's nonces are swept, besides the sweep of the recording key. */
const SWEEP_EVERY_MS = 1000;

/**
 * The `(key id, nonce)` pairs seen in the last `retentionMs` (600 s). Nonces
 * are held per key id, keyed by the nonce string the request already carries
 * (no joined key string per request, which the memory bench showed adds up
 * over 100 000 live nonces). Each key's entries are in insertion order, which
 * is clock order, so expired ones are dropped from the front: the recording
 * key's on every record, every key's once per clock second. Memory stays
 * bounded by the traffic of one retention period.
 */
export class NonceCache {
  private readonly byKey = new Map<string, Map<string, number>>();
  private sweptAt = -Infinity;

  constructor(private readonly retentionMs = 600_000) {}

  /** True when the pair was recorded less than `retentionMs` before `now`. */
  has(keyId: string, nonce: string, now: number): boolean {
    const at = this.byKey.get(keyId)?.get(nonce);
    return at !== undefined && now - at < this.retentionMs;
  }

  /** Records the pair at `now`, first dropping pairs that have expired. */
  record(keyId: string, nonce: string, now: number): void {
    if (now - this.sweptAt >= SWEEP_EVERY_MS) this.sweep(now);
    let seen = this.byKey.get(keyId);
    if (!seen) {
      seen = new Map();
      this.byKey.set(keyId, seen);
    }
    this.prune(seen, now);
    seen.delete(nonce);
    seen.set(nonce, now);
  }

  /** Forgets every pair. */
  clear(): void {
    this.byKey.clear();
    this.sweptAt = -Infinity;
  }

  /** Number of pairs held. */
  get size(): number {
    let n = 0;
    for (const seen of this.byKey.values()) n += seen.size;
    return n;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [keyId, seen] of this.byKey) {
      this.prune(seen, now);
      if (seen.size === 0) this.byKey.delete(keyId);
    }
  }

  private prune(seen: Map<string, number>, now: number): void {
    for (const [nonce, at] of seen) {
      if (now - at < this.retentionMs) break;
      seen.delete(nonce);
    }
  }
}
