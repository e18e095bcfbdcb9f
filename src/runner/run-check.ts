import { setMaxListeners } from 'node:events';
import type { Check, CheckContext, CheckOutcome } from '../checks/types.js';
import { refusedWaitOf } from '../clock/max-wait.js';
import { withAbortSignal } from '../client/abort-scope.js';
import { RoundTripMeter, withRoundTrips } from '../client/round-trip-scope.js';
import type { CaseResult, Verdict } from '../results/model.js';

const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR'];

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${err.message}`;
  }
  return String(err);
}

/** A case result for a check that did not run. */
export function skippedCase(check: Check, reason: string, at: number): CaseResult {
  return {
    id: check.id,
    kind: 'check',
    title: check.title,
    area: check.area,
    clause: check.clause,
    verdict: 'SKIP',
    message: reason,
    evidence: [],
    startedAt: at,
    durationMs: 0,
  };
}

/** Why a case that an interrupted run had started has no verdict. */
export const INTERRUPTED_CASE = 'not finished: the run was interrupted while it ran';

/** Why a case that an interrupted run had not started has no verdict. */
export const NOT_RUN_CASE = 'not run: the run was interrupted before it';

/**
 * Runs one check with a time limit. A thrown error or a timeout becomes an
 * ERROR verdict with its message, a malformed outcome too: the run goes on.
 * At the limit every request the check still has open is aborted (its
 * context's `signal`), so nothing it started outlives it. When `stop` aborts
 * (the run is interrupted) the same happens at once, and the check is a SKIP
 * that says it did not finish: half a check proves nothing either way.
 */
export async function runCheck(check: Check, ctx: CheckContext, timeoutMs: number, stop?: AbortSignal): Promise<CaseResult> {
  const startedAt = ctx.clock.now();
  const wallStartedAt = Date.now();
  const t0 = performance.now();
  let outcome: CheckOutcome;
  let timer: NodeJS.Timeout | undefined;
  const abort = new AbortController();
  const trips = new RoundTripMeter();
  let onStop = (): void => undefined;
  // Every request the check has in flight listens for this one abort: a burst holds hundreds at once, by design.
  setMaxListeners(0, abort.signal);
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error(`timed out after ${timeoutMs} ms`);
        abort.abort(err);
        reject(err);
      }, timeoutMs);
    });
    const stopped = new Promise<CheckOutcome>((resolve) => {
      onStop = () => {
        abort.abort(stop?.reason);
        resolve({ verdict: 'SKIP', message: INTERRUPTED_CASE });
      };
      if (stop?.aborted) onStop();
      else stop?.addEventListener('abort', onStop, { once: true });
    });
    const own: CheckContext = { ...ctx, signal: abort.signal };
    const running = withRoundTrips(trips, () => withAbortSignal(abort.signal, () => Promise.resolve().then(() => check.run(own))));
    // A check abandoned at its limit may still reject later: that is no longer news.
    running.catch(() => undefined);
    outcome = await Promise.race([running, timeout, stopped]);
    if (!outcome || !VERDICTS.includes(outcome.verdict)) {
      outcome = { verdict: 'ERROR', message: `check returned no valid verdict (got ${JSON.stringify(outcome?.verdict)})` };
    }
  } catch (err) {
    // A wait the one rule refused (--max-wait, in real time) is a SKIP naming the bound, as a wait known from the plan is.
    const refused = refusedWaitOf(err);
    outcome = refused ? { verdict: 'SKIP', message: refused.message } : { verdict: 'ERROR', message: `check threw: ${describe(err)}` };
  } finally {
    if (timer) clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
  const result: CaseResult = {
    id: check.id,
    kind: 'check',
    title: check.title,
    area: check.area,
    clause: check.clause,
    verdict: outcome.verdict,
    message: typeof outcome.message === 'string' ? outcome.message : String(outcome.message),
    evidence: Array.isArray(outcome.evidence) ? [...outcome.evidence] : [],
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    wallStartedAt,
    ...trips.read(),
  };
  if (outcome.details) result.details = outcome.details;
  return result;
}
