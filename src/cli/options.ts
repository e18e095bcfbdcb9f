import { HarnessError } from '../errors/harness-error.js';
import { parseOutTarget, type OutTarget } from '../outputs/out-target.js';

/*
 * The option parsers every command shares, used as yargs `coerce`
 * functions: each takes the raw value and returns the parsed one, or throws
 * an E_USAGE error naming the option and the value received.
 */

/**
 * What the user typed for `--name` (its last occurrence): yargs hands a
 * number option's coerce NaN for any text, and "got NaN" would not say what
 * was wrong.
 */
export function typedValue(name: string, argv: readonly string[] = process.argv): string | undefined {
  let typed: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith(`--${name}=`)) typed = a.slice(name.length + 3);
    else if (a === `--${name}` && i + 1 < argv.length) typed = argv[i + 1];
  }
  return typed;
}

function usage(name: string, what: string, got: unknown): HarnessError {
  const shown = typeof got === 'number' && Number.isNaN(got) ? (typedValue(name) ?? got) : got;
  return new HarnessError('E_USAGE', `--${name} ${what}, got ${typeof shown === 'string' ? JSON.stringify(shown) : String(shown)}`);
}

/** A comma list: items trimmed, empty items dropped (`"a, b,,"` → `["a", "b"]`). */
export function commaList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A comma list that must name at least one `what`. */
export function nonEmptyCommaList(name: string, what: string): (text: string) => string[] {
  return (text) => {
    const items = commaList(text);
    if (items.length === 0) throw new HarnessError('E_USAGE', `--${name} needs a comma list of ${what}`);
    return items;
  };
}

/** A TCP port, 0 (a free port) to 65535. */
export function port(name: string): (v: number) => number {
  return (v) => {
    if (!Number.isInteger(v) || v < 0 || v > 65535) throw usage(name, 'must be a port number from 0 to 65535', v);
    return v;
  };
}

/** An integer in `[min, max]` (max unbounded when absent). */
export function integer(name: string, min: number, max?: number): (v: number) => number {
  return (v) => {
    if (!Number.isSafeInteger(v) || v < min || (max !== undefined && v > max)) {
      throw usage(name, max !== undefined ? `must be an integer from ${min} to ${max}` : `must be an integer ≥ ${min}`, v);
    }
    return v;
  };
}

/** A number of seconds: above `above` (exclusive) or at least `atLeast`, and at most `max` when given. */
export function seconds(name: string, bounds: { above: number; max?: number } | { atLeast: number; max?: number }): (v: number) => number {
  const low = 'above' in bounds ? bounds.above : bounds.atLeast;
  const { max } = bounds;
  return (v) => {
    const ok = Number.isFinite(v) && ('above' in bounds ? v > low : v >= low) && (max === undefined || v <= max);
    if (!ok)
      throw usage(
        name,
        max !== undefined ? `must be a number of seconds from ${low} to ${max}` : `must be a number of seconds ${'above' in bounds ? '>' : '≥'} ${low}`,
        v,
      );
    return v;
  };
}

/** An http(s) URL. */
export function httpUrl(name: string): (v: string) => string {
  return (v) => {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw usage(name, 'must be an http(s) URL', v);
    return v;
  };
}

/** `i/N` with 1 ≤ i ≤ N: which part of the agencies this process takes. */
export function shard(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw usage('shard', 'must be i/N with 1 ≤ i ≤ N', text);
  return { index, count };
}

/** `--out NAME=URL` (repeatable): each value parsed into the output it names. */
export function outTargets(values: string[] | string | undefined): OutTarget[] {
  return (Array.isArray(values) ? values : values === undefined ? [] : [values]).map(parseOutTarget);
}

/** `--dashboard [PORT]`: the port named, or the default when the flag comes alone. */
export function livePort(defaultPort: number): (v: string) => number {
  return (v) => {
    if (v === '' || (v as unknown) === true) return defaultPort;
    const n = Number(v);
    if (!/^\d+$/.test(String(v)) || n > 65535) throw usage('dashboard', 'takes a port number from 0 to 65535, or nothing for the default', v);
    return n;
  };
}
