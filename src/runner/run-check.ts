import type { Check, CheckContext, CheckOutcome } from '../checks/types.js';
import type { CaseResult, Verdict } from '../report/model.js';

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
  return { id: check.id, kind: 'check', title: check.title, area: check.area, clause: check.clause, verdict: 'SKIP', message: reason, evidence: [], startedAt: at, durationMs: 0 };
}

/**
 * Runs one check with a time limit. A thrown error or a timeout becomes an
 * ERROR verdict with its message, a malformed outcome too: the run goes on.
 */
export async function runCheck(check: Check, ctx: CheckContext, timeoutMs: number): Promise<CaseResult> {
  const startedAt = ctx.clock.now();
  const t0 = performance.now();
  let outcome: CheckOutcome;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    outcome = await Promise.race([Promise.resolve().then(() => check.run(ctx)), timeout]);
    if (!outcome || !VERDICTS.includes(outcome.verdict)) {
      outcome = { verdict: 'ERROR', message: `check returned no valid verdict (got ${JSON.stringify(outcome?.verdict)})` };
    }
  } catch (err) {
    outcome = { verdict: 'ERROR', message: `check threw: ${describe(err)}` };
  } finally {
    if (timer) clearTimeout(timer);
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
  };
  if (outcome.details) result.details = outcome.details;
  return result;
}
