import type { Check } from '../checks/types.js';

/**
 * The cases a focused run of a defect selects (a `run --only` list): the
 * baseline, then the checks, scenarios and properties expected to catch it.
 * The baseline keeps the whole run's rule: a defect that refuses correctly
 * signed requests stops the run after it, as in a run of the whole suite.
 *
 * Undefined (the whole suite) when an expected check judges what the whole
 * run saw (a check that runs last, e.g. every error response of the run):
 * in a run of that check alone it would judge only its own requests, which
 * is another claim than the one the defect is expected to break.
 */
export function defectFocus(caughtBy: readonly string[], checks: readonly Pick<Check, 'id' | 'phase'>[]): string[] | undefined {
  const byId = new Map(checks.map((c) => [c.id.toUpperCase(), c]));
  if (caughtBy.some((id) => byId.get(id.toUpperCase())?.phase === 'last')) return undefined;
  return [...new Set([...checks.filter((c) => c.phase === 'baseline').map((c) => c.id), ...caughtBy])];
}
