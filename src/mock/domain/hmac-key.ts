import { createHmac, hash } from 'node:crypto';

/** SHA-256's block size: a longer key is hashed first (RFC 2104). */
const BLOCK = 64;

/** Longest message taken through the prepared blocks; a longer one goes through `createHmac`. */
const MAX_MESSAGE_BYTES = 4096;

/** Where a MAC is computed: `K ⊕ ipad` then the message, and `K ⊕ opad` then the inner digest; shared by every key. */
const INNER = Buffer.alloc(BLOCK + MAX_MESSAGE_BYTES);
const OUTER = Buffer.alloc(BLOCK + 32);

/**
 * `INNER`'s first `BLOCK + n` bytes, per message length `n`, made once: a
 * view made per MAC was a typed array allocated on every call (two MACs per
 * signed search).
 */
const innerViews: Buffer[] = [];

function innerView(n: number): Buffer {
  let view = innerViews[n];
  if (view === undefined) {
    view = INNER.subarray(0, BLOCK + n);
    innerViews[n] = view;
  }
  return view;
}

/**
 * An HMAC-SHA256 key prepared for many MACs on the hot path (RFC 2104):
 * `H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m))` as two one-shot `crypto.hash` calls
 * over the padded key blocks, computed once, with the message (then the
 * inner digest) written after them. No `Hmac` object is made per MAC: in the
 * server each one cost a native object, its handle and its release by the
 * garbage collector, far more than the MAC itself (`createHmac` 1.7 to 1.9 µs
 * a MAC in isolation, this 0.9). The same MACs as `createHmac('sha256', key)`.
 * A key holds its two blocks only; the buffers it writes are shared, which a
 * synchronous caller never notices.
 */
export class HmacKey {
  private readonly key: Buffer;
  private readonly ipad = Buffer.alloc(BLOCK);
  private readonly opad = Buffer.alloc(BLOCK);

  constructor(key: Buffer) {
    this.key = Buffer.from(key);
    const k = key.length > BLOCK ? hash('sha256', key, 'buffer') : key;
    for (let i = 0; i < BLOCK; i++) {
      const byte = i < k.length ? k[i]! : 0;
      this.ipad[i] = byte ^ 0x36;
      this.opad[i] = byte ^ 0x5c;
    }
  }

  /** Lower-case hex MAC of `message`'s UTF-8 bytes. */
  hex(message: string): string {
    return this.mac(message, 'hex');
  }

  /** base64url MAC (no padding) of `message`'s UTF-8 bytes. */
  base64url(message: string): string {
    return this.mac(message, 'base64url');
  }

  private mac(message: string, encoding: 'hex' | 'base64url'): string {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes: beyond the room, the message might not fit.
    if (message.length * 3 > MAX_MESSAGE_BYTES) return createHmac('sha256', this.key).update(message, 'utf8').digest(encoding);
    INNER.set(this.ipad);
    const n = INNER.write(message, BLOCK, 'utf8');
    OUTER.set(this.opad);
    // The inner digest as a 'binary' (latin1) string: its 32 bytes one per character, written back as the same bytes.
    OUTER.write(hash('sha256', innerView(n), 'binary'), BLOCK, 'binary');
    return hash('sha256', OUTER, encoding);
  }
}
