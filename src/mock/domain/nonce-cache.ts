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
/** One key id's nonces, in recording order, and a time no later than its oldest one's. */
interface KeyNonces {
  seen: Map<string, number>;
  /**
   * At or before the oldest entry's time (Infinity when empty): a record whose
   * key has nothing old enough to drop skips the walk, which made an iterator
   * and an entry per request (seen in the profile).
   */
  oldestAt: number;
}

export class NonceCache {
  private readonly byKey = new Map<string, KeyNonces>();
  private sweptAt = -Infinity;

  constructor(private readonly retentionMs = 600_000) {}

  /** True when the pair was recorded less than `retentionMs` before `now`. */
  has(keyId: string, nonce: string, now: number): boolean {
    const at = this.byKey.get(keyId)?.seen.get(nonce);
    return at !== undefined && now - at < this.retentionMs;
  }

  /**
   * Records the pair at `now`, first dropping pairs that have expired. `held`
   * false says the caller has just seen `has` answer false at this `now`: the
   * pair, if held at all, has expired and the drop removes it, so no lookup to
   * move it to the end is needed (one lookup fewer in a map of every nonce of
   * the last 600 s, per request).
   */
  record(keyId: string, nonce: string, now: number, held = true): void {
    if (now - this.sweptAt >= SWEEP_EVERY_MS) this.sweep(now);
    let nonces = this.byKey.get(keyId);
    if (!nonces) {
      nonces = { seen: new Map(), oldestAt: Infinity };
      this.byKey.set(keyId, nonces);
    }
    this.prune(nonces, now);
    if (held) nonces.seen.delete(nonce);
    nonces.seen.set(nonce, now);
    if (now < nonces.oldestAt) nonces.oldestAt = now;
  }

  /**
   * After the clock was put back: a pair recorded on the clock that ran ahead
   * counts as recorded `now`, so it is still refused as a replay for a whole
   * retention and then dropped, and the pairs recorded after it are not held
   * behind it (they are dropped from the front, in recording order).
   */
  clampTo(now: number): void {
    for (const nonces of this.byKey.values()) {
      for (const [nonce, at] of nonces.seen) if (at > now) nonces.seen.set(nonce, now);
      if (nonces.oldestAt > now && nonces.seen.size > 0) nonces.oldestAt = now;
    }
    this.sweptAt = Math.min(this.sweptAt, now);
  }

  /** Forgets every pair. */
  clear(): void {
    this.byKey.clear();
    this.sweptAt = -Infinity;
  }

  /** Number of pairs held. */
  get size(): number {
    let n = 0;
    for (const nonces of this.byKey.values()) n += nonces.seen.size;
    return n;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [keyId, nonces] of this.byKey) {
      this.prune(nonces, now);
      if (nonces.seen.size === 0) this.byKey.delete(keyId);
    }
  }

  private prune(nonces: KeyNonces, now: number): void {
    if (now - nonces.oldestAt < this.retentionMs) return;
    const seen = nonces.seen;
    nonces.oldestAt = Infinity;
    for (const [nonce, at] of seen) {
      if (now - at < this.retentionMs) {
        nonces.oldestAt = at;
        break;
      }
      seen.delete(nonce);
    }
  }
}
