import type { CaseResult, RunVerdict } from '../results/model.js';

/** A run's verdict and, when INCONCLUSIVE, why. */
interface RunVerdictOf {
  verdict: RunVerdict;
  reason?: string | undefined;
}

/**
 * The verdict of a suite run (`baselineId`: the check whose phase is
 * `baseline`, when the run has one). A refused baseline makes every other verdict
 * about the harness's access rather than the target, and a run in which no
 * case passed verified nothing: both are INCONCLUSIVE, never PASS. Otherwise
 * any FAIL or ERROR fails the run.
 */
export function suiteVerdict(cases: readonly CaseResult[], baselineId: string | undefined): RunVerdictOf {
  const baseline = baselineId === undefined ? undefined : cases.find((c) => c.id === baselineId && c.kind === 'check');
  if (baseline && (baseline.verdict === 'FAIL' || baseline.verdict === 'ERROR')) {
    return { verdict: 'INCONCLUSIVE', reason: baselineReason(baseline) };
  }
  if (cases.some((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR')) return { verdict: 'FAIL' };
  if (!cases.some((c) => c.verdict === 'PASS')) {
    const skipped = cases.filter((c) => c.verdict === 'SKIP');
    const first = skipped[0];
    const why =
      cases.length === 0
        ? 'nothing was selected'
        : first
          ? `${skipped.length} of ${cases.length} skipped, e.g. ${first.id}: ${first.message}`
          : `${cases.length} only warned`;
    return { verdict: 'INCONCLUSIVE', reason: `no case passed, so the run verified nothing (${why})` };
  }
  return { verdict: 'PASS' };
}

/** Why the rest of a run is not judged when the baseline check did not pass. */
export function baselineReason(baseline: Pick<CaseResult, 'id' | 'verdict' | 'message'>): string {
  return `the baseline ${baseline.id} (a correctly signed request is accepted) gave ${baseline.verdict}: ${baseline.message}; check the profile's base_url, key_id and secret`;
}
