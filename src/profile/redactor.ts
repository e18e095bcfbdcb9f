import { REDACTED } from '../log/redacted.js';

/** Replaces secrets in any string, array or plain object (deeply, returning a copy). */
export type Redact = <T>(value: T) => T;

/**
 * A redactor for report writers and logs: every occurrence of each secret in
 * any string (keys included) becomes `[REDACTED]`. Secrets shorter than 4
 * characters are ignored, since replacing them would shred ordinary text.
 */
export function redactor(secrets: Iterable<string>): Redact {
  // Longest first, so a secret containing another is replaced whole.
  const list = [...new Set(secrets)].filter((s) => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length);
  const text = (s: string): string => {
    let out = s;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)]));
    }
    return value;
  };
  return (<T>(value: T): T => (list.length === 0 ? value : (walk(value) as T))) as Redact;
}
