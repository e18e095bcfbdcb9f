import { REDACTED } from '../log/redacted.js';
import { needlesOf, replaceSpans, secretSpans, type Needles } from './decoded-views.js';
import { MIN_SECRET_LENGTH } from './secret-forms.js';

export { REDACTED };

/** What replaces a whole value whose secret could not be cut out of it (it would still show once redacted). */
export const WITHHELD = '[REDACTED: value withheld, it carries a secret]';

/** Replaces secrets in any string, array or plain object (deeply, returning a copy). */
type Redact = <T>(value: T) => T;

/** A redactor that also works on raw bytes (binary evidence, decoded bodies). */
export interface BytesRedact extends Redact {
  /** The bytes with every secret, in any decoded view, replaced by `[REDACTED]`. */
  bytes(data: Uint8Array): Buffer;
}

// `scheme://user:password@`: the userinfo of a URL is a credential wherever it is printed.
const USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#@[\]"'<>]+@/g;

/** `text` with the user and password of every URL in it masked. */
function withoutUserinfo(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, `$1${REDACTED}@`) : text;
}

const WHOLE_BASE64 = /^(?:[A-Za-z0-9+/]{8,}={0,2}|[A-Za-z0-9_-]{8,})$/;

/** Bytes as latin1 text (one character a byte) with every span of a secret replaced. */
function redactLatin1(latin1: string, needles: Needles): string | undefined {
  const spans = secretSpans(latin1, true, needles);
  return spans.length === 0 ? undefined : replaceSpans(latin1, spans, REDACTED);
}

/**
 * A redactor for report writers, certificates, the console and logs. Every
 * occurrence of each secret in any string (keys included) or bytes is cut
 * out in every form a value can carry it: plain, JSON escapes and percent
 * escapes in any mix, base64 and base64url at any alignment (MIME-wrapped
 * too), hex in either case, and any of these inside a decoded base64 or hex
 * run (see decoded-views.ts). A string that is base64 as a whole (a
 * `bodyBase64`) is decoded, redacted and re-encoded, so it stays a faithful
 * copy of the redacted body. A value still carrying a secret once redacted
 * is withheld whole ({@link WITHHELD}). The user and password of any URL are
 * masked too. Secrets shorter than 4 characters are ignored, since replacing
 * them would shred ordinary text.
 */
export function redactor(secrets: Iterable<string>): BytesRedact {
  const list = [...new Set(secrets)].filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
  const needles = needlesOf(list);
  const none = list.length === 0;

  const bytes = (data: Uint8Array): Buffer => {
    const buf = Buffer.from(data);
    if (none) return buf;
    const before = buf.toString('latin1');
    const after = redactLatin1(before, needles);
    if (after === undefined) return buf;
    // A replacement that joins into a new form is withheld rather than shown.
    return Buffer.from(redactLatin1(after, needles) === undefined ? after : WITHHELD, 'latin1');
  };
  // A value that is base64 as a whole: its decoded bytes redacted and encoded again in the same alphabet and padding.
  // A value that is base64 as a whole: its decoded bytes redacted (`clean` when they hold nothing) and encoded again in the same alphabet and padding.
  const wholeBase64 = (s: string): { clean: true } | { reencoded: string } | undefined => {
    if (!WHOLE_BASE64.test(s)) return undefined;
    const url = /[-_]/.test(s);
    const raw = Buffer.from(s, url ? 'base64url' : 'base64');
    const after = redactLatin1(raw.toString('latin1'), needles);
    if (after === undefined) return { clean: true };
    const enc = Buffer.from(after, 'latin1').toString(url ? 'base64url' : 'base64');
    return { reencoded: s.endsWith('=') || url ? enc : enc.replace(/=+$/, '') };
  };
  const text = (value: string): string => {
    const s = withoutUserinfo(value);
    if (none) return s;
    const whole = wholeBase64(s);
    const t = whole && 'reencoded' in whole ? whole.reencoded : s;
    // Its base64 view was searched whole from its first character; other offsets decode to noise.
    const spans = secretSpans(t, false, needles, 0, { decodedWhole: whole !== undefined });
    if (spans.length === 0) return t;
    const out = replaceSpans(t, spans, REDACTED);
    return secretSpans(out, false, needles).length === 0 ? out : WITHHELD;
  };
  // What this redactor returned: handed back to it (a result redacted when built, then again when written), it is already clean.
  const produced = new WeakSet<object>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (value !== null && typeof value === 'object' && produced.has(value)) return value;
    if (Array.isArray(value)) return kept(value.map(walk));
    if (value instanceof Uint8Array) return bytes(value);
    if (value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
      return kept(Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)])));
    }
    return value;
  };
  const kept = (copy: object): object => {
    produced.add(copy);
    return copy;
  };
  const redact = (<T>(value: T): T => walk(value) as T) as BytesRedact;
  redact.bytes = bytes;
  return redact;
}
