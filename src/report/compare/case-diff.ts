import { CASE_CHANGES, type CaseChange, type CaseDelta } from './comparison.js';

/** What the case diff needs of a case: any kind of run maps onto it. */
export interface ComparableCase {
  id: string;
  title: string;
  area: string;
  verdict: string;
  message: string;
}

/** FAIL and ERROR fail a run; any other verdict (PASS, WARN, SKIP, or one this version does not know) does not. */
function failing(verdict: string): boolean {
  return verdict === 'FAIL' || verdict === 'ERROR';
}

function changeOf(base: ComparableCase | undefined, now: ComparableCase | undefined): CaseChange | undefined {
  if (!base) return now && failing(now.verdict) ? 'newly-failing' : 'added';
  if (!now) return 'removed';
  if (failing(now.verdict)) return failing(base.verdict) ? 'still-failing' : 'newly-failing';
  if (failing(base.verdict)) return now.verdict === 'PASS' ? 'fixed' : 'changed';
  if (now.verdict === base.verdict) return undefined;
  return now.verdict === 'SKIP' ? 'newly-skipped' : 'changed';
}

/**
 * Matches the cases of two runs by id: what newly fails (a new case that
 * fails counts), what was fixed, what still fails, what is newly skipped,
 * what else changed verdict, and cases only one run has. Each keeps its
 * verdict and message in both runs; the list is worst change first, then
 * in NEW's order.
 */
export function diffCases(base: readonly ComparableCase[], now: readonly ComparableCase[]): { deltas: CaseDelta[]; unchanged: number } {
  const before = new Map(base.map((c) => [c.id, c]));
  const after = new Map(now.map((c) => [c.id, c]));
  const ids = [...after.keys(), ...[...before.keys()].filter((id) => !after.has(id))];
  const deltas: CaseDelta[] = [];
  let unchanged = 0;
  for (const id of ids) {
    const b = before.get(id);
    const a = after.get(id);
    const change = changeOf(b, a);
    if (change === undefined) {
      unchanged++;
      continue;
    }
    const either = (a ?? b)!;
    deltas.push({
      id,
      title: either.title,
      area: either.area,
      change,
      base: b ? { verdict: b.verdict, message: b.message } : undefined,
      new: a ? { verdict: a.verdict, message: a.message } : undefined,
    });
  }
  const rank = (c: CaseChange): number => CASE_CHANGES.indexOf(c);
  return {
    deltas: deltas
      .map((d, i) => ({ d, i }))
      .sort((x, y) => rank(x.d.change) - rank(y.d.change) || x.i - y.i)
      .map((x) => x.d),
    unchanged,
  };
}
