/**
 * Where secrets hide in a value: the decoded views of a string or of raw
 * bytes, each with a map back to the characters it came from, so a secret
 * found in a view can be cut out of the original.
 *
 * Views (all searched as bytes, a secret being its UTF-8 bytes):
 * - literal: plain characters, JSON escapes (`\u0073`, `\/`, …) and percent
 *   escapes (`%73`, `%2F`, `%2f`), in any mix, decoded in one pass;
 * - base64 and base64url runs of the literal view (MIME line breaks
 *   skipped), at each of the four character offsets;
 * - hex runs of the literal view, lower or upper case, at both offsets.
 * What a base64 or hex run decodes to is searched once more with every view
 * (a base64 body holding a base64 form), not deeper.
 */

/** A half-open range `[start, end)` of positions, with the view that found it (`literal`, `base64`, `hex`). */
export type Span = readonly [number, number, string?];

/** A view as latin1 text (one character per byte); byte i came from source positions `[start[i], end[i])`, identity when absent. */
interface View {
  text: string;
  start?: Int32Array;
  end?: Int32Array;
}

/** What a search looks for: each secret's UTF-8 bytes as latin1 text, and the lengths that bound the scans. */
export interface Needles {
  list: readonly string[];
  /** Shortest needle, in bytes. */
  minBytes: number;
}

/** Needles of `secrets` (already filtered for length). */
export function needlesOf(secrets: readonly string[]): Needles {
  const list = [...new Set(secrets.map((s) => Buffer.from(s, 'utf8').toString('latin1')))];
  return { list, minBytes: Math.min(...list.map((n) => n.length)) };
}

const NEEDS_DECODING_TEXT = /[\\%]|[^\x00-\x7f]/;
const NEEDS_DECODING_BYTES = /[\\%]/;
const HEX = /^[0-9A-Fa-f]$/;
const SIMPLE_ESCAPES: Record<string, number> = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

function isHex4(s: string, i: number): boolean {
  return i + 4 <= s.length && HEX.test(s[i]!) && HEX.test(s[i + 1]!) && HEX.test(s[i + 2]!) && HEX.test(s[i + 3]!);
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

/** A UTF-16 pair at `i` of `s` (plain or `\uXXXX\uXXXX`) as one code point, else the unit alone. */
function codePoint(hi: number, lo: number | undefined): { cp: number; pair: boolean } {
  if (hi >= 0xd800 && hi <= 0xdbff && lo !== undefined && lo >= 0xdc00 && lo <= 0xdfff) return { cp: 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), pair: true };
  return { cp: hi >= 0xd800 && hi <= 0xdfff ? 0xfffd : hi, pair: false };
}

/**
 * The literal view: plain characters with JSON and percent escapes decoded
 * in place. `bytes` says each character of `s` is one byte (latin1 text of
 * raw bytes) rather than a character to encode as UTF-8.
 */
export function literalView(s: string, bytes: boolean): View {
  if (!(bytes ? NEEDS_DECODING_BYTES : NEEDS_DECODING_TEXT).test(s)) return { text: s };
  const out: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const emit = (from: number, to: number, n: number): void => {
    for (let k = 0; k < n; k++) {
      start.push(from);
      end.push(to);
    }
  };
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const before = out.length;
    if (c === 0x5c && s[i + 1] === 'u' && isHex4(s, i + 2)) {
      const hi = parseInt(s.slice(i + 2, i + 6), 16);
      const lo = s[i + 6] === '\\' && s[i + 7] === 'u' && isHex4(s, i + 8) ? parseInt(s.slice(i + 8, i + 12), 16) : undefined;
      const { cp, pair } = codePoint(hi, lo);
      pushUtf8(out, cp);
      const to = i + (pair ? 12 : 6);
      emit(i, to, out.length - before);
      i = to;
    } else if (c === 0x5c && s[i + 1] !== undefined && SIMPLE_ESCAPES[s[i + 1]!] !== undefined) {
      out.push(SIMPLE_ESCAPES[s[i + 1]!]!);
      emit(i, i + 2, 1);
      i += 2;
    } else if (c === 0x25 && i + 2 < s.length && HEX.test(s[i + 1]!) && HEX.test(s[i + 2]!)) {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      emit(i, i + 3, 1);
      i += 3;
    } else if (bytes || c < 0x80) {
      out.push(c & 0xff);
      emit(i, i + 1, 1);
      i += 1;
    } else {
      const { cp, pair } = codePoint(c, i + 1 < s.length ? s.charCodeAt(i + 1) : undefined);
      pushUtf8(out, cp);
      emit(i, i + (pair ? 2 : 1), out.length - before);
      i += pair ? 2 : 1;
    }
  }
  return { text: Buffer.from(out).toString('latin1'), start: Int32Array.from(start), end: Int32Array.from(end) };
}

/** Source span of view bytes `[a, b)`. */
function toSource(view: View, a: number, b: number, form: string): Span {
  return view.start ? [view.start[a]!, view.end![b - 1]!, form] : [a, b, form];
}

/** Every place a needle occurs in `text`. */
function plainHits(text: string, needles: Needles, out: Span[]): void {
  if (text.length < needles.minBytes) return;
  for (const n of needles.list) {
    for (let at = text.indexOf(n); at >= 0; at = text.indexOf(n, at + 1)) out.push([at, at + n.length]);
  }
}

/** Share of bytes that are printable ASCII or whitespace: decoded garbage is far below the bar for a second look. */
function looksLikeText(latin1: string): boolean {
  let printable = 0;
  for (let i = 0; i < latin1.length; i++) {
    const c = latin1.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) printable++;
  }
  return printable >= latin1.length * 0.85;
}

// Base64 or base64url characters, MIME line breaks (real or JSON-escaped in the view they are real) between them, padding at the end.
const BASE64_RUN = /(?:[A-Za-z0-9+/_-]|\r?\n)+=*/g;
const HEX_RUN = /[0-9A-Fa-f]+/g;

/** Hits inside what a run decodes to: the needles, and at depth 0 every view of the decoded bytes. */
function decodedHits(decoded: string, needles: Needles, depth: number): Span[] {
  const hits: Span[] = [];
  plainHits(decoded, needles, hits);
  if (depth === 0 && decoded.length >= needles.minBytes && looksLikeText(decoded)) hits.push(...secretSpans(decoded, true, needles, 1));
  return hits;
}

function base64Hits(view: View, needles: Needles, depth: number, out: Span[]): void {
  // A needle of n bytes takes at least ceil(8n/6) characters.
  const minChars = Math.ceil((8 * needles.minBytes) / 6);
  // matchAll works on a copy of the pattern: the nested search below runs the same pattern on the decoded text.
  for (const m of view.text.matchAll(BASE64_RUN)) {
    const run = m[0];
    if (run.length < minChars) continue;
    const at = m.index;
    // The run without its line breaks, and where each of its characters sits in the view.
    let compact = run;
    let pos: Int32Array | undefined;
    if (run.includes('\n')) {
      const p: number[] = [];
      let c = '';
      for (let i = 0; i < run.length; i++) {
        const ch = run[i]!;
        if (ch !== '\n' && ch !== '\r') {
          c += ch;
          p.push(at + i);
        }
      }
      compact = c;
      pos = Int32Array.from(p);
    }
    const viewPos = (i: number): number => (pos ? pos[i]! : at + i);
    const body = compact.replace(/=+$/, '');
    for (let k = 0; k < 4 && body.length - k >= minChars; k++) {
      // Node reads both alphabets; a fourth character of a quantum with no byte of its own is dropped.
      const decoded = Buffer.from(body.slice(k), 'base64').toString('latin1');
      for (const [a, b] of decodedHits(decoded, needles, depth)) {
        // Byte j spans bits [8j, 8j+8): characters floor(8j/6) … floor((8j+7)/6).
        const first = k + Math.floor((8 * a) / 6);
        const last = Math.min(k + Math.floor((8 * b - 1) / 6), compact.length - 1);
        out.push(toSource(view, viewPos(first), viewPos(last) + 1, 'base64'));
      }
    }
  }
}

function hexHits(view: View, needles: Needles, depth: number, out: Span[]): void {
  for (const m of view.text.matchAll(HEX_RUN)) {
    const run = m[0];
    if (run.length < 2 * needles.minBytes) continue;
    for (let k = 0; k < 2; k++) {
      const decoded = Buffer.from(run.slice(k, k + ((run.length - k) & ~1)), 'hex').toString('latin1');
      for (const [a, b] of decodedHits(decoded, needles, depth)) out.push(toSource(view, m.index + k + 2 * a, m.index + k + 2 * b, 'hex'));
    }
  }
}

/**
 * The spans of `s` that carry one of the needles in any decoded view
 * (unmerged, possibly overlapping). `bytes` says `s` is latin1 text of raw
 * bytes. `depth` 0 looks inside decoded runs once more.
 */
export function secretSpans(s: string, bytes: boolean, needles: Needles, depth = 0): Span[] {
  if (s.length < needles.minBytes || needles.list.length === 0) return [];
  const out: Span[] = [];
  const view = literalView(s, bytes);
  const hits: Span[] = [];
  plainHits(view.text, needles, hits);
  for (const [a, b] of hits) out.push(toSource(view, a, b, 'literal'));
  base64Hits(view, needles, depth, out);
  hexHits(view, needles, depth, out);
  return out;
}

/** `spans` sorted and merged where they overlap or touch. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** `s` with each span replaced by `by`. */
export function replaceSpans(s: string, spans: readonly Span[], by: string): string {
  let out = '';
  let at = 0;
  for (const [a, b] of mergeSpans(spans)) {
    out += s.slice(at, a) + by;
    at = b;
  }
  return out + s.slice(at);
}
