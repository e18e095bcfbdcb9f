import { isHarnessError } from '../errors/harness-error.js';
import type { RunVerdict } from '../results/model.js';
import type { CaseRunResult } from '../results/run-result.js';

/**
 * What a command hands back to `main`, which alone turns it into the
 * process exit status. Commands never set the exit code themselves, so the
 * mapping below is the whole contract of the CLI's exit statuses.
 */
export type CommandOutcome =
  /** Nothing was judged (a listing, a key pair written, the mock stopped). */
  | { kind: 'done' }
  /** A judged run: the suite, scenarios, the self-test, a certificate and its verification. */
  | { kind: 'verdict'; passed: boolean }
  /** A run that proves nothing: no case passed, or the baseline signed request was refused; `targetUnusable` when the target's answers could not even be read (exit 3). */
  | { kind: 'inconclusive'; targetUnusable?: boolean | undefined }
  /** A certificate verified intact without a key to pin its signer: not a yes, since anyone can write an intact folder (exit 2: pass --public-key). */
  | { kind: 'unpinned' }
  /** A load run: verdicts under load and performance gates fail separately. */
  | { kind: 'load'; verdictsPassed: boolean; gatesPassed: boolean; targetLost?: boolean | undefined }
  /** Stopped by a signal: a load that wrote its report marked INTERRUPTED, or a second signal that quit at once. */
  | { kind: 'interrupted'; signal?: 'SIGINT' | 'SIGTERM' | undefined };

/** The exit statuses of the CLI (docs/commands.md). */
export const EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  BUG: 70,
  GATE_FAILED: 99,
  INTERRUPTED: 130,
  TERMINATED: 143,
} as const;

/** Exit status of a command that returned. A failed verdict outranks a failed gate: correctness before speed. */
export function exitCodeOf(outcome: CommandOutcome): number {
  switch (outcome.kind) {
    case 'done':
      return EXIT.OK;
    case 'verdict':
      return outcome.passed ? EXIT.OK : EXIT.FAILED;
    case 'inconclusive':
      return outcome.targetUnusable ? EXIT.UNREACHABLE : EXIT.FAILED;
    case 'unpinned':
      return EXIT.USAGE;
    case 'load':
      if (outcome.targetLost) return EXIT.UNREACHABLE;
      return !outcome.verdictsPassed ? EXIT.FAILED : !outcome.gatesPassed ? EXIT.GATE_FAILED : EXIT.OK;
    case 'interrupted':
      // 128 + the signal's number, as a shell reports a process the signal ended.
      return outcome.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED;
  }
}

/** Exit status of an error that reached `main`: a harness error's own code, 2 for a yargs usage error, 70 for anything else (a bug). */
export function exitCodeOfError(err: unknown): number {
  if (isHarnessError(err)) return err.exitCode;
  if (isUsageError(err)) return EXIT.USAGE;
  return EXIT.BUG;
}

/** True for the errors yargs' parsing produced (see `buildParser`). */
export function isUsageError(err: unknown): err is Error {
  return err instanceof Error && (err as { usage?: unknown }).usage === true;
}

/** The outcome of a judged run from its verdict: only PASS passes, and INCONCLUSIVE is told apart from FAIL. */
export function verdictOutcome(verdict: RunVerdict): CommandOutcome {
  return verdict === 'INCONCLUSIVE' ? { kind: 'inconclusive' } : { kind: 'verdict', passed: verdict === 'PASS' };
}

/** The outcome of a load run: its failed cases, split between verdicts under load and gates; a target that died under it outranks both (exit 3). */
export function loadOutcome(result: Pick<CaseRunResult, 'cases'> & { load?: { targetError?: unknown } | undefined }): CommandOutcome {
  const failed = result.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
  const outcome: CommandOutcome = { kind: 'load', verdictsPassed: !failed.some((c) => c.kind !== 'gate'), gatesPassed: !failed.some((c) => c.kind === 'gate') };
  return result.load?.targetError !== undefined ? { ...outcome, targetLost: true } : outcome;
}
