/** Longest nonce held: the service's nonces are 16 to 64 characters of `[A-Za-z0-9_-]` (REFERENCE-API.md section 3). */
const MAX_NONCE_CHARS = 64;

/** Entries first made room for; the room doubles as needed and halves once mostly empty. */
const FIRST_ROOM = 1024;

/**
 * The `(key id, nonce)` pairs seen in the last `retentionMs` (600 s).
 *
 * Kept outside the JS heap: each pair is a record in typed arrays (its time,
 * its key's number, its hash and the nonce's characters, one byte each), in
 * recording order, found through an open-addressing table of record
 * positions. Held as a map of nonce strings, every request's nonce outlived
 * many young-generation collections, was copied and promoted, and the map's
 * table was marked again and again; a mock without the record at all read 9%
 * less CPU per search in the server. Records are in recording order, which
 * is clock order, so expired ones leave from the front on every record.
 * Memory stays bounded by the traffic of one retention period.
 */
export class NonceCache {
  /** Key id → its number in the records. */
  private readonly keyNumbers = new Map<string, number>();
  /** Records: absolute numbers `first` (oldest) to `next`; record `n` is at position `n & (room - 1)`. */
  private room = 0;
  private first = 0;
  private next = 0;
  /** Pairs held (records not removed). */
  private held = 0;
  /** Time recorded, NaN once removed (a pair recorded again moves to the end). */
  private at = new Float64Array(0);
  private keyOf = new Int32Array(0);
  private hashOf = new Int32Array(0);
  private lengthOf = new Uint8Array(0);
  private chars = new Uint8Array(0);
  /**
   * Open addressing, linear probing, twice as many slots as the room: slot
   * `s` holds the position + 1 of a held record at `2s` (0 when free) and its
   * hash at `2s + 1`, so a probe reads the records' arrays only on a match.
   */
  private table = new Int32Array(0);
  /** Slots of the table, less one (a power of two, less one). */
  private mask = 0;
  /** The pair hashed last and its hash: `has` then `record` of one request hash it once. */
  private lastNonce = '';
  private lastKey = -1;
  private lastHash = 0;

  constructor(private readonly retentionMs = 600_000) {}

  /** True when the pair was recorded less than `retentionMs` before `now`. */
  has(keyId: string, nonce: string, now: number): boolean {
    const key = this.keyNumbers.get(keyId);
    if (key === undefined || this.room === 0) return false;
    const slot = this.find(key, nonce, this.hash(key, nonce));
    return slot >= 0 && now - this.at[this.table[2 * slot]! - 1]! < this.retentionMs;
  }

  /**
   * Records the pair at `now`, first dropping pairs that have expired; a pair
   * held already (expired or not) is moved to the end with the new time.
   * @throws RangeError for a nonce over 64 characters or outside Latin-1, which authentication has already refused
   */
  record(keyId: string, nonce: string, now: number): void {
    if (nonce.length > MAX_NONCE_CHARS) throw new RangeError(`a nonce is at most ${MAX_NONCE_CHARS} characters`);
    for (let i = 0; i < nonce.length; i++) if (nonce.charCodeAt(i) > 0xff) throw new RangeError('a nonce is Latin-1 text');
    this.prune(now);
    let key = this.keyNumbers.get(keyId);
    if (key === undefined) {
      key = this.keyNumbers.size;
      this.keyNumbers.set(keyId, key);
    }
    const h = this.hash(key, nonce);
    if (this.room !== 0) {
      const slot = this.find(key, nonce, h);
      if (slot >= 0) {
        this.at[this.table[2 * slot]! - 1] = Number.NaN;
        this.held -= 1;
        this.free(slot);
      }
    }
    if (this.next - this.first === this.room) this.resize(Math.max(FIRST_ROOM, this.held * 2));
    const pos = this.next & (this.room - 1);
    const base = pos * MAX_NONCE_CHARS;
    for (let i = 0; i < nonce.length; i++) this.chars[base + i] = nonce.charCodeAt(i);
    this.at[pos] = now;
    this.keyOf[pos] = key;
    this.hashOf[pos] = h;
    this.lengthOf[pos] = nonce.length;
    this.place(pos);
    this.next += 1;
    this.held += 1;
  }

  /** Forgets every pair. */
  clear(): void {
    this.keyNumbers.clear();
    this.room = 0;
    this.first = 0;
    this.next = 0;
    this.held = 0;
    this.at = new Float64Array(0);
    this.keyOf = new Int32Array(0);
    this.hashOf = new Int32Array(0);
    this.lengthOf = new Uint8Array(0);
    this.chars = new Uint8Array(0);
    this.table = new Int32Array(0);
    this.mask = 0;
    this.lastNonce = '';
    this.lastKey = -1;
  }

  /** Number of pairs held. */
  get size(): number {
    return this.held;
  }

  private hash(key: number, nonce: string): number {
    if (nonce !== this.lastNonce || key !== this.lastKey) {
      this.lastHash = hash(key, nonce);
      this.lastNonce = nonce;
      this.lastKey = key;
    }
    return this.lastHash;
  }

  /** Drops expired records from the front, and halves the room once it is mostly empty. */
  private prune(now: number): void {
    const mask = this.room - 1;
    while (this.first < this.next) {
      const pos = this.first & mask;
      const at = this.at[pos]!;
      if (!Number.isNaN(at)) {
        if (now - at < this.retentionMs) break;
        this.free(this.slotOf(pos));
        this.held -= 1;
      }
      this.first += 1;
    }
    if (this.room > FIRST_ROOM && this.held * 4 < this.room) this.resize(Math.max(FIRST_ROOM, this.held * 2));
  }

  /** The table slot of the held pair, or -1. */
  private find(key: number, nonce: string, h: number): number {
    const table = this.table;
    const mask = this.mask;
    const n = nonce.length;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const entry = table[2 * slot]!;
      if (entry === 0) return -1;
      if (table[2 * slot + 1] !== h) continue;
      const pos = entry - 1;
      if (this.keyOf[pos] !== key || this.lengthOf[pos] !== n) continue;
      const base = pos * MAX_NONCE_CHARS;
      let same = true;
      for (let i = 0; i < n; i++) {
        if (this.chars[base + i] !== nonce.charCodeAt(i)) {
          same = false;
          break;
        }
      }
      if (same) return slot;
    }
  }

  /** The table slot that holds record position `pos`. */
  private slotOf(pos: number): number {
    const table = this.table;
    const mask = this.mask;
    let slot = this.hashOf[pos]! & mask;
    while (table[2 * slot] !== pos + 1) slot = (slot + 1) & mask;
    return slot;
  }

  /** Puts record position `pos` in the table. */
  private place(pos: number): void {
    const table = this.table;
    const mask = this.mask;
    const h = this.hashOf[pos]!;
    let slot = h & mask;
    while (table[2 * slot] !== 0) slot = (slot + 1) & mask;
    table[2 * slot] = pos + 1;
    table[2 * slot + 1] = h;
  }

  /** Empties a table slot, moving back the entries after it that would no longer be found (linear probing). */
  private free(slot: number): void {
    const table = this.table;
    const mask = this.mask;
    let hole = slot;
    for (let j = (slot + 1) & mask; table[2 * j] !== 0; j = (j + 1) & mask) {
      const home = table[2 * j + 1]! & mask;
      // The entry at j stays unless its home lies cyclically outside (hole, j].
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!stays) {
        table[2 * hole] = table[2 * j]!;
        table[2 * hole + 1] = table[2 * j + 1]!;
        hole = j;
      }
    }
    table[2 * hole] = 0;
  }

  /** Moves the held records, in order, into a room of (the power of two at or above) `wanted`. */
  private resize(wanted: number): void {
    let room = FIRST_ROOM;
    while (room < wanted) room *= 2;
    const at = new Float64Array(room);
    const keyOf = new Int32Array(room);
    const hashOf = new Int32Array(room);
    const lengthOf = new Uint8Array(room);
    const chars = new Uint8Array(room * MAX_NONCE_CHARS);
    const oldMask = this.room - 1;
    let n = 0;
    for (let r = this.first; r < this.next; r++) {
      const from = r & oldMask;
      const t = this.at[from]!;
      if (Number.isNaN(t)) continue;
      at[n] = t;
      keyOf[n] = this.keyOf[from]!;
      hashOf[n] = this.hashOf[from]!;
      lengthOf[n] = this.lengthOf[from]!;
      chars.set(this.chars.subarray(from * MAX_NONCE_CHARS, from * MAX_NONCE_CHARS + lengthOf[n]!), n * MAX_NONCE_CHARS);
      n += 1;
    }
    this.room = room;
    this.at = at;
    this.keyOf = keyOf;
    this.hashOf = hashOf;
    this.lengthOf = lengthOf;
    this.chars = chars;
    this.first = 0;
    this.next = n;
    this.table = new Int32Array(room * 4);
    this.mask = room * 2 - 1;
    for (let pos = 0; pos < n; pos++) this.place(pos);
  }
}

/** FNV-1a of the key's number and the nonce's characters. */
function hash(key: number, nonce: string): number {
  let h = 0x811c9dc5 ^ key;
  for (let i = 0; i < nonce.length; i++) h = Math.imul(h ^ nonce.charCodeAt(i), 0x01000193);
  return h;
}
