import { createHmac, hash } from 'node:crypto';

/** SHA-256's block size: a longer key is hashed first (RFC 2104). */
const BLOCK = 64;

/** Longest message taken through the prepared blocks; a longer one goes through `createHmac`. */
const MAX_MESSAGE_BYTES = 4096;

/**
 * An HMAC-SHA256 key prepared for many MACs on the hot path (RFC 2104):
 * `H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m))` as two one-shot `crypto.hash` calls
 * over buffers that already hold the padded key blocks, the message written
 * after the inner one. No `Hmac` object is made per MAC: in the server each
 * one cost a native object, its handle and the digest's set-up, about twice
 * the MAC itself (`createHmac` 1.7 to 1.9 µs a MAC in isolation, this 0.9).
 * The same MACs as `createHmac('sha256', key)`; not reentrant (each call
 * writes the same buffers), which a synchronous caller never notices.
 */
export class HmacKey {
  private readonly key: Buffer;
  /** `K ⊕ ipad`, then room for the message. */
  private readonly inner = Buffer.alloc(BLOCK + MAX_MESSAGE_BYTES);
  /** `K ⊕ opad`, then the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + 32);

  constructor(key: Buffer) {
    this.key = Buffer.from(key);
    const k = key.length > BLOCK ? hash('sha256', key, 'buffer') : key;
    for (let i = 0; i < BLOCK; i++) {
      const byte = i < k.length ? k[i]! : 0;
      this.inner[i] = byte ^ 0x36;
      this.outer[i] = byte ^ 0x5c;
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
    const n = this.inner.write(message, BLOCK, 'utf8');
    // The inner digest as a 'binary' (latin1) string: its 32 bytes one per character, written back as the same bytes.
    this.outer.write(hash('sha256', this.inner.subarray(0, BLOCK + n), 'binary'), BLOCK, 'binary');
    return hash('sha256', this.outer, encoding);
  }
}
