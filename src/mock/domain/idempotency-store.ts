/** Retention of idempotency keys: 24 h. */
const IDEMPOTENCY_RETENTION_MS = 24 * 3600_000;

/** A stored final response, replayed byte for byte. */
export interface StoredResponse {
  status: number;
  body: Buffer;
  contentType: string;
  requestId: string;
  /** The event the original emitted, kept only so a defect can emit it again. */
  event?: { type: 'booking.confirmed' | 'booking.cancelled'; data: Record<string, unknown> };
}

interface Entry {
  fingerprint: string;
  createdAt: number;
  response?: StoredResponse;
}

/** What the store says about a request carrying a key. */
type IdempotencyVerdict = { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'in-use' } | { kind: 'reused'; response?: StoredResponse };

/**
 * Idempotency keys per scope `(agency, method, path, key)` with the SHA-256
 * fingerprint of the raw body (REFERENCE-API.md section 7). Entries live 24 h
 * from their creation; they are kept in creation order, so expired ones are
 * dropped from the front.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly retentionMs = IDEMPOTENCY_RETENTION_MS) {}

  /** Judges a request; a `new` verdict records the key as in flight. */
  begin(scope: string, fingerprint: string, now: number): IdempotencyVerdict {
    this.prune(now);
    const e = this.entries.get(scope);
    if (!e) {
      this.entries.set(scope, { fingerprint, createdAt: now });
      return { kind: 'new' };
    }
    if (e.fingerprint !== fingerprint) return e.response ? { kind: 'reused', response: e.response } : { kind: 'reused' };
    if (!e.response) return { kind: 'in-use' };
    return { kind: 'replay', response: e.response };
  }

  /** Stores the final response of a request that `begin` judged new. */
  complete(scope: string, response: StoredResponse): void {
    const e = this.entries.get(scope);
    if (e && !e.response) e.response = response;
  }

  /** After the clock was put back: a key created on the clock that ran ahead counts as created `now` (kept a whole retention from the reset, and not in front of later keys for longer). */
  clampTo(now: number): void {
    for (const e of this.entries.values()) if (e.createdAt > now) e.createdAt = now;
  }

  /** Forgets every key. */
  clear(): void {
    this.entries.clear();
  }

  /** Number of keys held. */
  get size(): number {
    return this.entries.size;
  }

  private prune(now: number): void {
    for (const [scope, e] of this.entries) {
      if (now - e.createdAt < this.retentionMs) break;
      this.entries.delete(scope);
    }
  }
}

/** Parses an `Idempotency-Key` header value: unquotes `"abc"`; undefined when missing, null when invalid. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) return null;
  let v = raw;
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  if (v.length < 1 || v.length > 255 || !/^[\x20-\x7e]+$/.test(v)) return null;
  return v;
}
