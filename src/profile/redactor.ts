import { REDACTED } from '../log/redacted.js';
import { base64Needles, looksBase64, MIN_SECRET_LENGTH, textForms } from './secret-forms.js';

export { REDACTED };

/** Replaces secrets in any string, array or plain object (deeply, returning a copy). */
export type Redact = <T>(value: T) => T;

/** A redactor that also works on raw bytes (binary evidence, decoded bodies). */
export interface BytesRedact extends Redact {
  /** The bytes with every secret (plain, JSON-escaped or URL-encoded) replaced by `[REDACTED]`. */
  bytes(data: Uint8Array): Buffer;
}

function replaceAll(s: string, forms: readonly string[], by: string): string {
  let out = s;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(by);
  return out;
}

/**
 * A redactor for report writers and logs: every occurrence of each secret in
 * any string (keys included) becomes `[REDACTED]`, in every form a body can
 * carry it: plain, JSON-escaped, URL-encoded, and inside base64 or base64url
 * text (decoded, redacted, re-encoded, so `bodyBase64` stays a faithful copy
 * of the redacted body). Secrets shorter than 4 characters are ignored, since
 * replacing them would shred ordinary text.
 */
export function redactor(secrets: Iterable<string>): BytesRedact {
  // Longest first, so a secret containing another is replaced whole.
  const list = [...new Set(secrets)].filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  const forms = [...new Set(list.flatMap(textForms))].sort((a, b) => b.length - a.length);
  // Needles of every text form, so a base64 body whose decoded text holds an escaped secret is caught by the one-pass test below.
  const needles = [...new Set(forms.flatMap(base64Needles))].sort((a, b) => b.length - a.length);
  // Byte-exact replacement: latin1 maps each byte to one character and back.
  const latin1Forms = forms.map((f) => Buffer.from(f, 'utf8').toString('latin1'));
  const redactedLatin1 = Buffer.from(REDACTED, 'utf8').toString('latin1');
  // One pass to tell the common case (no secret in any form) from the rest, instead of a search per form.
  const escape = (f: string): string => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const anyText = new RegExp([...forms, ...needles].map(escape).join('|') || '(?!)');
  const anyLatin1 = new RegExp(latin1Forms.map(escape).join('|') || '(?!)');

  const bytes = (data: Uint8Array): Buffer => {
    const buf = Buffer.from(data);
    const before = buf.toString('latin1');
    if (!anyLatin1.test(before)) return buf;
    const after = replaceAll(before, latin1Forms, redactedLatin1);
    return after === before ? buf : Buffer.from(after, 'latin1');
  };
  const decodedBase64 = (s: string): string | undefined => {
    if (!looksBase64(s)) return undefined;
    const url = /[-_]/.test(s);
    if (url && /[+/]/.test(s)) return undefined;
    const raw = Buffer.from(s, url ? 'base64url' : 'base64');
    const clean = bytes(raw);
    if (clean.equals(raw)) return undefined;
    const padded = s.endsWith('=') || (!url && s.length % 4 === 0);
    const enc = clean.toString(url ? 'base64url' : 'base64');
    return padded || url ? enc : enc.replace(/=+$/, '');
  };
  const text = (s: string): string => {
    if (!anyText.test(s)) return s;
    const plain = replaceAll(s, forms, REDACTED);
    const reencoded = decodedBase64(plain) ?? plain;
    // Base64 embedded in longer text (a header value, a data URL) cannot be re-encoded in place: cut the secret's characters out.
    return replaceAll(reencoded, needles, REDACTED);
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value instanceof Uint8Array) return bytes(value);
    if (value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)]));
    }
    return value;
  };
  const redact = (<T>(value: T): T => (list.length === 0 ? value : (walk(value) as T))) as BytesRedact;
  redact.bytes = (data) => (list.length === 0 ? Buffer.from(data) : bytes(data));
  return redact;
}
