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
type Span = readonly [number, number, string?];

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
  /** Fewest base64 characters that can carry a needle. */
  minBase64Chars: number;
  /**
   * Long texts lately found clean (as bytes): a body and its base64 copy, or
   * the same answer in several places, are searched once.
   */
  clean: Set<string>;
  /** The base64 characters (standard alphabet) each secret's bytes alone determine, at each of the three byte alignments. */
  base64: readonly string[];
  /** Each secret in lower-case hex. */
  hex: readonly string[];
}

/** The characters of base64 that the bytes of `needle` (latin1) determine alone, for each alignment of its first byte. */
function base64Cores(needle: string): string[] {
  const bytes = Buffer.from(needle, 'latin1');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + bytes.length) - 6) / 6);
    out.push(enc.slice(first, last + 1));
  }
  return out;
}

/** Needles of `secrets` (already filtered for length). */
export function needlesOf(secrets: readonly string[]): Needles {
  const list = [...new Set(secrets.map((s) => Buffer.from(s, 'utf8').toString('latin1')))];
  const minBytes = Math.min(...list.map((n) => n.length));
  return {
    list,
    minBytes,
    minBase64Chars: Math.ceil((8 * minBytes) / 6),
    clean: new Set(),
    base64: [...new Set(list.flatMap(base64Cores))],
    hex: list.map((n) => Buffer.from(n, 'latin1').toString('hex')),
  };
}

// Character classes by code: 1 base64 or base64url, 2 also hex, 4 a line break (inside a MIME-wrapped run).
const CLASS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') CLASS[c.charCodeAt(0)] = 1;
for (const c of '0123456789abcdefABCDEF') CLASS[c.charCodeAt(0)] = 3;
CLASS[10] = 4;
CLASS[13] = 4;

/**
 * The runs `[start, end)` of `text` whose characters all have `bit` (line
 * breaks allowed inside when `breaks`, `=` padding kept at the end of a
 * base64 run), at least `min` characters long. A loop over character codes:
 * far cheaper than a pattern matching every word on its way.
 */
function runsOf(text: string, bit: number, min: number, breaks: boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let chars = 0;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0;
    const k = c < 128 ? CLASS[c]! : 0;
    if (k & bit) {
      if (start < 0) start = i;
      chars++;
    } else if (breaks && k === 4 && start >= 0) {
      continue;
    } else if (start >= 0) {
      let end = i;
      if (breaks) while (end < n && text.charCodeAt(end) === 0x3d) end++;
      if (chars >= min) out.push([start, end]);
      start = -1;
      chars = 0;
    }
  }
  return out;
}

/** Texts shorter than this are not remembered as clean (searching them costs less than remembering). */
const REMEMBER_CLEAN_FROM = 256;
/** How many clean texts are remembered before the memory starts afresh. */
const REMEMBER_CLEAN_MAX = 64;
const ASCII = /^[\x00-\x7f]*$/;

const NEEDS_DECODING_TEXT = /[\\%]|&#|[^\x00-\x7f]/;
const NEEDS_DECODING_BYTES = /[\\%]|&#/;
// A numeric character reference, `&#x73;` or `&#115;`.
const CHAR_REF = /^&#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));/;
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
  if (hi >= 0xd800 && hi <= 0xdbff && lo !== undefined && lo >= 0xdc00 && lo <= 0xdfff)
    return { cp: 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), pair: true };
  return { cp: hi >= 0xd800 && hi <= 0xdfff ? 0xfffd : hi, pair: false };
}

/**
 * The literal view: plain characters with JSON and percent escapes decoded
 * in place. `bytes` says each character of `s` is one byte (latin1 text of
 * raw bytes) rather than a character to encode as UTF-8.
 */
function literalView(s: string, bytes: boolean): View {
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
    } else if (c === 0x26 && s[i + 1] === '#' && CHAR_REF.test(s.slice(i, i + 12))) {
      const m = CHAR_REF.exec(s.slice(i, i + 12))!;
      const cp = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
      pushUtf8(out, cp <= 0x10ffff ? cp : 0xfffd);
      emit(i, i + m[0].length, out.length - before);
      i += m[0].length;
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

/** Hits inside what a run decodes to: the needles, and at depth 0 every view of the decoded bytes. */
function decodedHits(decoded: string, needles: Needles, depth: number): Span[] {
  const hits: Span[] = [];
  plainHits(decoded, needles, hits);
  // Only escapes or a run long enough for an encoded needle can hide one a level down.
  const worthALook = decoded.length >= needles.minBase64Chars || decoded.includes('%') || decoded.includes('\\');
  if (depth === 0 && worthALook && looksLikeText(decoded)) hits.push(...secretSpans(decoded, true, needles, 1));
  return hits;
}

/** Characters decoded to see whether a run (from one offset) is text worth decoding whole. */
const PROBE_CHARS = 64;

/**
 * Base64 and base64url runs (MIME line breaks skipped): the characters of a
 * secret found directly (either alphabet, mixed too), and, at depth 0, the
 * views of what a run decodes to from each offset whose start is text.
 */
function base64Hits(view: View, runs: readonly [number, number][], needles: Needles, depth: number, out: Span[]): void {
  const minChars = needles.minBase64Chars;
  for (const [at, to] of runs) {
    const run = view.text.slice(at, to);
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
    const std = body.includes('-') || body.includes('_') ? body.replace(/-/g, '+').replace(/_/g, '/') : body;
    for (const n of needles.base64) {
      for (let i = std.indexOf(n); i >= 0; i = std.indexOf(n, i + 1)) {
        // One character more each side: those share bits with the secret.
        out.push(toSource(view, viewPos(Math.max(0, i - 1)), viewPos(Math.min(compact.length - 1, i + n.length)) + 1, 'base64'));
      }
    }
    if (depth > 0) continue;
    for (let k = 0; k < 4 && body.length - k >= minChars; k++) {
      // Node reads both alphabets; a fourth character of a quantum with no byte of its own is dropped.
      const probe = Buffer.from(body.slice(k, k + PROBE_CHARS), 'base64').toString('latin1');
      if (!looksLikeText(probe)) continue;
      const decoded = body.length - k <= PROBE_CHARS ? probe : Buffer.from(body.slice(k), 'base64').toString('latin1');
      for (const [a, b] of decodedHits(decoded, needles, depth)) {
        // Byte j spans bits [8j, 8j+8): characters floor(8j/6) … floor((8j+7)/6).
        const first = k + Math.floor((8 * a) / 6);
        const last = Math.min(k + Math.floor((8 * b - 1) / 6), compact.length - 1);
        out.push(toSource(view, viewPos(first), viewPos(last) + 1, 'base64'));
      }
    }
  }
}

/** Hex runs in either case: a secret found directly at any offset, and, at depth 0, the views of what a run decodes to when it is text. */
function hexHits(view: View, runs: readonly [number, number][], needles: Needles, depth: number, out: Span[]): void {
  // Hex characters are base64 characters too: the hex runs are found inside the base64 runs.
  const min = 2 * needles.minBytes;
  const hexRuns = runs.flatMap(([from, to]) =>
    to - from < min ? [] : runsOf(view.text.slice(from, to), 2, min, false).map(([a, b]): [number, number] => [from + a, from + b]),
  );
  for (const [at, to] of hexRuns) {
    const run = view.text.slice(at, to);
    const lower = /[A-F]/.test(run) ? run.toLowerCase() : run;
    for (const n of needles.hex) {
      for (let i = lower.indexOf(n); i >= 0; i = lower.indexOf(n, i + 1)) out.push(toSource(view, at + i, at + i + n.length, 'hex'));
    }
    if (depth > 0) continue;
    for (let k = 0; k < 2; k++) {
      const even = run.slice(k, k + ((run.length - k) & ~1));
      const probe = Buffer.from(even.slice(0, PROBE_CHARS), 'hex').toString('latin1');
      if (!looksLikeText(probe)) continue;
      const decoded = even.length <= PROBE_CHARS ? probe : Buffer.from(even, 'hex').toString('latin1');
      for (const [a, b] of decodedHits(decoded, needles, depth)) out.push(toSource(view, at + k + 2 * a, at + k + 2 * b, 'hex'));
    }
  }
}

/** Options of {@link secretSpans}. */
interface SpanOptions {
  /** `s` is base64 as a whole and what it decodes to was searched already: its base64 view is not searched again. */
  decodedWhole?: boolean;
}

/**
 * The spans of `s` that carry one of the needles in any decoded view
 * (unmerged, possibly overlapping). `bytes` says `s` is latin1 text of raw
 * bytes. `depth` 0 looks inside decoded runs once more.
 */
export function secretSpans(s: string, bytes: boolean, needles: Needles, depth = 0, options: SpanOptions = {}): Span[] {
  if (s.length < needles.minBytes || needles.list.length === 0) return [];
  // Text and bytes views agree on ASCII; clean at depth 0 is clean at depth 1.
  const rememberable = s.length >= REMEMBER_CLEAN_FROM && (bytes || ASCII.test(s));
  if (rememberable && needles.clean.has(s)) return [];
  const out = spansOf(s, bytes, needles, depth, options.decodedWhole === true);
  if (rememberable && depth === 0 && out.length === 0) {
    if (needles.clean.size >= REMEMBER_CLEAN_MAX) needles.clean.clear();
    needles.clean.add(s);
  }
  return out;
}

function spansOf(s: string, bytes: boolean, needles: Needles, depth: number, decodedWhole: boolean): Span[] {
  const out: Span[] = [];
  const view = literalView(s, bytes);
  const hits: Span[] = [];
  plainHits(view.text, needles, hits);
  for (const [a, b] of hits) out.push(toSource(view, a, b, 'literal'));
  // Escapes of escapes (`\u0025` + `73`, shown as `%73` once a page decodes the JSON): the literal view of the literal view.
  if (view.start && NEEDS_DECODING_BYTES.test(view.text)) {
    const twice = literalView(view.text, true);
    const again: Span[] = [];
    if (twice.start) plainHits(twice.text, needles, again);
    for (const [a, b] of again) {
      const [from, to] = toSource(twice, a, b, 'literal');
      out.push(toSource(view, from, to, 'literal'));
    }
  }
  // A needle of n bytes takes at least ceil(8n/6) base64 characters, 2n hex ones (more).
  const runs = runsOf(view.text, 1, needles.minBase64Chars, true);
  if (!decodedWhole) base64Hits(view, runs, needles, depth, out);
  hexHits(view, runs, needles, depth, out);
  return out;
}

/** `spans` sorted and merged where they overlap or touch. */
function mergeSpans(spans: readonly Span[]): Span[] {
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
