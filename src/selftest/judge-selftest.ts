import type { CaseResult } from '../results/model.js';
import type { SuiteResult } from '../results/run-result.js';
import type { CheckCoverage, CleanOutcome, DefectOutcome, FailedCase } from '../results/selftest-result.js';

/** A case counts as failed when its verdict is FAIL or ERROR. */
function isFailure(c: Pick<CaseResult, 'verdict'>): boolean {
  return c.verdict === 'FAIL' || c.verdict === 'ERROR';
}

/** The failed cases of a run, each with the evidence ids that are not among its exchanges. */
function failedCases(run: Pick<SuiteResult, 'cases' | 'exchanges'>): FailedCase[] {
  const known = new Set(run.exchanges.map((x) => x.id));
  return run.cases.filter(isFailure).map((c) => ({
    id: c.id,
    kind: c.kind,
    verdict: c.verdict,
    message: c.message,
    evidence: [...c.evidence],
    missingEvidence: c.evidence.filter((id) => !known.has(id)),
  }));
}

/** True when a failed case proves its verdict: a FAIL (not a crash) naming at least one exchange of the run, all of them present. */
function hasEvidence(f: FailedCase): boolean {
  return f.verdict === 'FAIL' && f.evidence.length > 0 && f.missingEvidence.length === 0;
}

/** What the judge needs to know about a defect. */
export interface DefectSpec {
  defect: string;
  description: string;
  promise: string;
  caughtBy: readonly string[];
}

/**
 * Judges one defect's run: caught when at least one expected check failed
 * with evidence from the run; other failures are collateral.
 */
export function judgeDefect(spec: DefectSpec, run: Pick<SuiteResult, 'cases' | 'exchanges' | 'durationMs' | 'seed'>): DefectOutcome {
  const failed = failedCases(run);
  const expected = new Set(spec.caughtBy);
  const mine = failed.filter((f) => expected.has(f.id));
  const caughtBy = mine.filter(hasEvidence).map((f) => f.id);
  return {
    defect: spec.defect,
    description: spec.description,
    promise: spec.promise,
    expected: [...spec.caughtBy],
    caughtBy,
    unproven: mine.filter((f) => !hasEvidence(f)),
    collateral: failed.filter((f) => !expected.has(f.id)),
    caught: caughtBy.length > 0,
    cases: run.cases.length,
    durationMs: run.durationMs,
    seed: run.seed,
  };
}

/** A defect whose run could not complete: not caught. */
export function erroredDefect(spec: DefectSpec, error: string, durationMs: number, seed: number): DefectOutcome {
  return {
    defect: spec.defect,
    description: spec.description,
    promise: spec.promise,
    expected: [...spec.caughtBy],
    caughtBy: [],
    unproven: [],
    collateral: [],
    caught: false,
    cases: 0,
    durationMs,
    seed,
    error,
  };
}

/** Judges a run against the mock with no defect: every failed case is a false alarm. */
export function judgeClean(index: number, run: Pick<SuiteResult, 'cases' | 'exchanges' | 'durationMs' | 'seed'>): CleanOutcome {
  return { index, falseAlarms: failedCases(run), cases: run.cases.length, durationMs: run.durationMs, seed: run.seed };
}

/**
 * For each check: the defects it caught and those it alone caught. Checks
 * are every id in `checkIds` (so one that caught nothing shows up).
 */
export function coverageOf(
  outcomes: readonly DefectOutcome[],
  checkIds: readonly string[],
  explanations: Readonly<Record<string, string>> = {},
): CheckCoverage[] {
  return checkIds.map((check) => {
    const catches = outcomes.filter((o) => o.caughtBy.includes(check)).map((o) => o.defect);
    const only = outcomes.filter((o) => o.caughtBy.length === 1 && o.caughtBy[0] === check).map((o) => o.defect);
    const explanation = explanations[check];
    return { check, catches, only, ...(explanation !== undefined ? { explanation } : {}) };
  });
}

/** Checks that alone catch no defect and carry no explanation. */
export function unexplained(coverage: readonly CheckCoverage[]): string[] {
  return coverage.filter((c) => c.only.length === 0 && c.explanation === undefined).map((c) => c.check);
}
