import { isHarnessError } from '../errors/harness-error.js';
import type { GateResult, LoadResult } from '../results/load-result.js';
import { exitCodeOfError, isUsageError } from './exit-codes.js';

/*
 * What `--json` prints. Every command prints one JSON object on stdout with
 * snake_case keys, the wire format of the reference API; when the command
 * ends in an error, that object is `{"error": {"code", "message", "exit"}}`.
 */

/** True when the command line asks for `--json` output (looked for before `--`). */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--json' || a === '--json=true');
}

/** The one JSON object a `--json` command prints when it ends in an error. */
export function errorJson(err: unknown): string {
  const code = isHarnessError(err) ? err.code : isUsageError(err) ? 'E_USAGE' : 'E_INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  return JSON.stringify({ error: { code, message, exit: exitCodeOfError(err) } });
}

/** Load totals in snake_case. */
export function totalsJson(t: LoadResult['totals']): Record<string, number> {
  return { requests: t.requests, ok: t.ok, rate_limited: t.rateLimited, errors: t.errors, expected: t.expected ?? 0, cut_off: t.cutOff ?? 0 };
}

/** Gate verdicts in snake_case. */
export function gatesJson(gates: readonly GateResult[]): Array<Record<string, unknown>> {
  return gates.map((g) => ({ id: g.id, source: g.source, passed: g.passed, actual: g.actual ?? null, expected: g.expected, message: g.message }));
}
