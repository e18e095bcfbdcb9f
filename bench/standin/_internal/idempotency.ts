import { createHash } from 'node:crypto';

/**
 * Idempotency of bookings and cancellations (REFERENCE-API.md section 7):
 * scope (agency, method, path), fingerprint SHA-256 of the raw body, the
 * final response stored whatever its status and replayed byte for byte.
 */

interface Stored {
  fingerprint: string;
  at: number;
  answer: { status: number; body: Buffer } | null;
}

/** What to do with a request that carries a key. */
export type Claim =
  | { kind: 'execute'; complete(status: number, body: Buffer): void }
  | { kind: 'replay'; status: number; body: Buffer }
  | { kind: 'reused' }
  | { kind: 'in-use' };

const RETENTION_MS = 24 * 3_600_000;

/** The key as REFERENCE-API.md reads it: a quoted value means its inside; 1 to 255 printable ASCII characters. */
export function readKey(header: string | undefined): { ok: true; key: string } | { ok: false; reason: 'missing' | 'invalid' } {
  if (header === undefined) return { ok: false, reason: 'missing' };
  const key = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key) ? { ok: true, key } : { ok: false, reason: 'invalid' };
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Stored>();
  private lastPrune = 0;

  claim(agencyId: string, method: string, path: string, key: string, rawBody: Buffer, now: number): Claim {
    if (now - this.lastPrune > 60_000) this.prune(now);
    const scope = `${agencyId}\n${method}\n${path}\n${key}`;
    const fingerprint = createHash('sha256').update(rawBody).digest('hex');
    const found = this.entries.get(scope);
    if (found !== undefined && now - found.at < RETENTION_MS) {
      if (found.fingerprint !== fingerprint) return { kind: 'reused' };
      if (found.answer === null) return { kind: 'in-use' };
      return { kind: 'replay', ...found.answer };
    }
    const stored: Stored = { fingerprint, at: now, answer: null };
    this.entries.delete(scope);
    this.entries.set(scope, stored);
    return {
      kind: 'execute',
      complete: (status, body) => {
        stored.answer = { status, body };
      },
    };
  }

  private prune(now: number): void {
    this.lastPrune = now;
    for (const [scope, s] of this.entries) {
      if (now - s.at < RETENTION_MS) break;
      this.entries.delete(scope);
    }
  }
}
