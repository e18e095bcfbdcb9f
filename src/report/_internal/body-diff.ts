import type { Exchange } from '../../client/exchange.js';

/** Two responses to the same request whose bodies differ: an original and its replay. */
export interface DifferingPair {
  first: Exchange & { response: NonNullable<Exchange['response']> };
  second: Exchange & { response: NonNullable<Exchange['response']> };
}

/** One line of a line diff: kept, removed (only in the first body) or added (only in the second). */
interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Lines beyond this per body are not diffed (the bodies themselves are still shown). */
const MAX_DIFF_LINES = 400;

/** The request header that makes a write a replay when sent again (the reference API's name; headers are kept lower-case). */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

function idempotencyKey(x: Exchange): string | undefined {
  const entry = Object.entries(x.request.headers).find(([name]) => name.toLowerCase() === IDEMPOTENCY_KEY_HEADER);
  return entry?.[1];
}

/** Method, URL, Idempotency-Key and body: two requests alike in all four are an original and its replay. */
function requestKey(x: Exchange, key: string): string {
  return `${x.request.method} ${x.request.url}\u0000${key}\u0000${x.request.body ?? ''}`;
}

/** Reads change between two asks; only a write sent again promises the same bytes. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A write that promises its answer again: not a read, and sent with an Idempotency-Key (a search is no write; a write without a key promises nothing). */
function replayable(x: Exchange): x is DifferingPair['first'] {
  return x.response !== undefined && !READS.has(x.request.method.toUpperCase()) && idempotencyKey(x) !== undefined;
}

/**
 * Pairs of writes sent twice with the same Idempotency-Key (same method, URL
 * and body too) whose response bodies differ: what a byte-identity promise
 * is about. Each exchange of the case is paired with the first exchange of
 * the run that sent the same request, so a case that names only the replay
 * still shows its original. `named` (the pair a check or property found
 * broken) comes first; then pairs answered with the same status, whose bytes
 * alone differ; last, pairs whose status differs (a concurrent request
 * refused while the original ran is allowed to).
 */
export function differingPairs(
  evidence: readonly Exchange[],
  run: readonly Exchange[] = evidence,
  named?: { original: string; replay: string },
): DifferingPair[] {
  const firstOf = new Map<string, DifferingPair['first']>();
  for (const x of run) {
    if (!replayable(x)) continue;
    const key = requestKey(x, idempotencyKey(x)!);
    if (!firstOf.has(key)) firstOf.set(key, x);
  }
  const pairs: DifferingPair[] = [];
  const seen = new Set<string>();
  if (named) {
    const byId = new Map([...run, ...evidence].map((x) => [x.id, x]));
    const original = byId.get(named.original);
    const replay = byId.get(named.replay);
    if (original?.response && replay?.response && original.id !== replay.id) {
      pairs.push({ first: original as DifferingPair['first'], second: replay as DifferingPair['second'] });
      seen.add(replay.id);
    }
  }
  const found: DifferingPair[] = [];
  for (const x of evidence) {
    if (!replayable(x)) continue;
    const first = firstOf.get(requestKey(x, idempotencyKey(x)!));
    if (!first || first.id === x.id || first.response.body === x.response.body || seen.has(x.id)) continue;
    seen.add(x.id);
    found.push({ first, second: x });
  }
  const sameStatus = (p: DifferingPair): number => (p.first.response.status === p.second.response.status ? 0 : 1);
  return [
    ...pairs,
    ...found
      .map((p, i) => ({ p, i }))
      .sort((a, b) => sameStatus(a.p) - sameStatus(b.p) || a.i - b.i)
      .map(({ p }) => p),
  ];
}

/** The first byte (UTF-8) at which two texts differ, or undefined when equal. */
export function firstDifferingByte(a: string, b: string): number | undefined {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return i;
  return x.length === y.length ? undefined : n;
}

/** The bytes around an offset, decoded, so a reader sees what differs (whitespace made visible by JSON quoting). */
export function around(text: string, byte: number, width = 24): string {
  const buf = Buffer.from(text, 'utf8');
  return JSON.stringify(buf.subarray(Math.max(0, byte - width), byte + width).toString('utf8'));
}

/** A line diff (longest common subsequence) of two texts. */
export function lineDiff(a: string, b: string): DiffLine[] {
  const x = a.split('\n').slice(0, MAX_DIFF_LINES);
  const y = b.split('\n').slice(0, MAX_DIFF_LINES);
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push({ op: ' ', text: x[i++]! });
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: '-', text: x[i++]! });
    else out.push({ op: '+', text: y[j++]! });
  }
  while (i < x.length) out.push({ op: '-', text: x[i++]! });
  while (j < y.length) out.push({ op: '+', text: y[j++]! });
  return out;
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Paths (`price.amount`, `results[2]`) where two JSON values differ, at most `max`. */
function jsonDifferences(a: unknown, b: unknown, path: string, out: string[], max: number): void {
  if (out.length >= max) return;
  if (a === b) return;
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) jsonDifferences(a[i], b[i], `${path}[${i}]`, out, max);
    return;
  }
  if (isObj(a) && isObj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) jsonDifferences(a[k], b[k], path ? `${path}.${k}` : k, out, max);
    return;
  }
  out.push(`${path || '(the whole body)'}: ${JSON.stringify(a) ?? 'absent'} → ${JSON.stringify(b) ?? 'absent'}`);
}

/**
 * What differs between two bodies, in one sentence when both are JSON: the
 * same value spelt differently (formatting, key order) or the fields whose
 * values changed.
 */
export function jsonVerdict(a: string, b: string): string | undefined {
  const x = parse(a);
  const y = parse(b);
  if (!x.ok || !y.ok) return undefined;
  const diffs: string[] = [];
  jsonDifferences(x.value, y.value, '', diffs, 12);
  if (diffs.length === 0)
    return 'Both bodies parse to the same JSON value: the bytes differ only in how it is written (whitespace, key order or number spelling).';
  return `The JSON values differ: ${diffs.join('; ')}${diffs.length >= 12 ? '; …' : ''}.`;
}
