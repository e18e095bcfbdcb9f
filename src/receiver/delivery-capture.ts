import { bodyEvidence, EVIDENCE_BODY_BYTES } from '../client/body-capture.js';

/** Total bytes of bodies over the evidence size the receiver keeps whole, across its deliveries. */
const RECEIVER_LARGE_BODY_BUDGET = 32 * 1024 * 1024;

/** How a delivery's body is kept: whole, or a prefix with the whole's size and hash. */
interface KeptBody {
  body: Buffer;
  /** The whole body's byte count, when only a prefix is kept. */
  bytes?: number;
  /** SHA-256 (hex) of the whole body, when only a prefix is kept. */
  sha256?: string;
  /** True when `body` is only a prefix. */
  truncated?: true;
}

/** Decides, delivery by delivery, how much of each body to keep. */
interface DeliveryKeeper {
  keep(body: Buffer): KeptBody;
  /** Forgets what was kept (the receiver dropped its deliveries). */
  reset(): void;
}

/**
 * Bounds what the receiver holds: small bodies are kept whole; larger ones
 * are kept whole too while their total stays within `budgetBytes` (so
 * signatures over them can still be checked), and beyond that only as a
 * prefix with the byte count and SHA-256 of the whole.
 */
export function deliveryKeeper(evidenceBytes = EVIDENCE_BODY_BYTES, budgetBytes = RECEIVER_LARGE_BODY_BUDGET): DeliveryKeeper {
  let used = 0;
  return {
    keep(body) {
      if (body.length <= evidenceBytes) return { body };
      if (used + body.length <= budgetBytes) {
        used += body.length;
        return { body };
      }
      const ev = bodyEvidence(body, evidenceBytes);
      return { body: ev.kept, bytes: body.length, sha256: ev.sha256!, truncated: true };
    },
    reset() {
      used = 0;
    },
  };
}

/** Defines `text` on a delivery as the UTF-8 of its kept body, decoded on use rather than held twice. */
export function withLazyText<T extends { body: Buffer }>(delivery: T): T & { readonly text: string } {
  return Object.defineProperty(delivery, 'text', {
    enumerable: true,
    get(this: T) {
      return this.body.toString('utf8');
    },
  }) as T & { readonly text: string };
}
