/**
 * The shapes a secret takes once it travels inside a body, a URL or a JSON
 * string, so redaction and the "would contain a secret" guard see through
 * encodings and not only the plain text (the views are in decoded-views.ts).
 */
import { needlesOf, secretSpans } from './decoded-views.js';

/** Secrets shorter than this are ordinary text: replacing them would shred reports. */
export const MIN_SECRET_LENGTH = 4;

/** The name of the form a span of `text` found by the literal view is in. */
function literalForm(text: string): string {
  if (text.includes('%')) return 'URL-encoded';
  if (text.includes('\\')) return 'JSON-escaped';
  return 'plain';
}

/**
 * Which of `secrets` survives in `content`, plain or in any encoded form
 * (JSON-escaped, URL-encoded, base64, base64url, hex, and these inside a
 * decoded base64 or hex run); undefined when none does.
 */
export function findSecret(content: string | Uint8Array, secrets: Iterable<string>): { secret: string; form: string } | undefined {
  const bytes = typeof content !== 'string';
  const text = bytes ? Buffer.from(content).toString('latin1') : content;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    const [span] = secretSpans(text, bytes, needlesOf([secret]));
    if (span) return { secret, form: span[2] === 'literal' ? literalForm(text.slice(span[0], span[1])) : (span[2] ?? 'plain') };
  }
  return undefined;
}
