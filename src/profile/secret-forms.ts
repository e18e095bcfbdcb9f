/**
 * The shapes a secret takes once it travels inside a body, a URL or a JSON
 * string, so redaction and the "would contain a secret" guard see through
 * encodings and not only the plain text.
 */

/** Secrets shorter than this are ordinary text: replacing them would shred reports. */
export const MIN_SECRET_LENGTH = 4;

/** A secret as text: plain, JSON-escaped and URL-encoded (the forms text replacement can remove). */
export function textForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  // Percent escapes in lower case and an escaped slash are equally valid spellings.
  forms.add(encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  forms.add(secret.replace(/\//g, '\\/'));
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/**
 * The base64 and base64url characters that encode `secret` wherever it sits
 * in a longer encoded body: for each of the three byte alignments, the run of
 * characters determined by the secret's bytes alone.
 */
export function base64Needles(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64').replace(/=+$/, '');
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + bytes.length) - 6) / 6);
    const needle = enc.slice(first, last + 1);
    if (needle.length >= MIN_SECRET_LENGTH) {
      out.add(needle);
      out.add(needle.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...out];
}

const BASE64ISH = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** True when the whole string could be base64 or base64url worth decoding. */
export function looksBase64(s: string): boolean {
  return s.length >= 8 && BASE64ISH.test(s);
}

/** Decodes percent escapes, keeping anything malformed as it was. */
function percentDecoded(s: string): string {
  return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Decodes JSON string escapes (`\uXXXX`, `\/`, …), keeping anything malformed as it was. */
function jsonUnescaped(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|["\\/bfnrt])/g, (m, e: string) => {
    if (e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? m;
  });
}

/**
 * Which of `secrets` survives in `content`, plain or in any encoded form
 * (JSON-escaped, URL-encoded, base64, base64url, including base64 inside a
 * longer encoded body); undefined when none does.
 */
export function findSecret(content: string | Uint8Array, secrets: Iterable<string>): { secret: string; form: string } | undefined {
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
  const utf8 = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  const views: [string, string][] = [
    ['plain', text],
    ['plain', utf8],
    ['URL-encoded', percentDecoded(utf8)],
    ['JSON-escaped', jsonUnescaped(utf8)],
  ];
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    for (const [form, view] of views) if (view.includes(secret)) return { secret, form };
    for (const needle of base64Needles(secret)) if (text.includes(needle)) return { secret, form: 'base64' };
  }
  return undefined;
}
