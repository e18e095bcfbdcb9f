import { timingSafeEqual } from 'node:crypto';

/** Raw body as bytes; a string is taken as its UTF-8 bytes. */
export function bodyBytes(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Constant-time equality of two byte strings; unequal lengths are simply unequal. */
export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks `timestampS` against `nowS` within `toleranceS`; a non-finite tolerance disables the check. */
export function withinTolerance(timestampS: number, nowS: number, toleranceS: number): boolean {
  if (!Number.isFinite(toleranceS)) return true;
  return Math.abs(nowS - timestampS) <= toleranceS;
}

/** A Unix-seconds timestamp as sent: decimal digits only. */
export function parseUnixSeconds(value: string | number): number | undefined {
  const text = String(value).trim();
  if (!/^\d{1,12}$/.test(text)) return undefined;
  return Number(text);
}
