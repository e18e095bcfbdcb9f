import { AREAS, type Area, type CaseResult, type Verdict } from '../../results/model.js';

/** Areas in the order of the specification; reports list them this way. */
const AREA_ORDER: readonly Area[] = AREAS;

/** Verdicts from most to least urgent: failures are read first. */
export const VERDICT_ORDER: readonly Verdict[] = ['FAIL', 'ERROR', 'KNOWN', 'WARN', 'SKIP', 'PASS'];

/** True for verdicts that make the run fail. */
export function isFailing(verdict: Verdict): boolean {
  return verdict === 'FAIL' || verdict === 'ERROR';
}

/** True for verdicts the reports give a card of their own: the failing ones, and the known failures beside them. */
export function hasCard(verdict: Verdict): boolean {
  return isFailing(verdict) || verdict === 'KNOWN';
}

function areaRank(area: string): number {
  const i = (AREA_ORDER as readonly string[]).indexOf(area);
  return i === -1 ? AREA_ORDER.length : i;
}

/** Compares areas in specification order; areas outside the model's list come last, alphabetically. */
export function compareAreas(a: string, b: string): number {
  return areaRank(a) - areaRank(b) || a.localeCompare(b);
}

/** One area and its cases, in run order. */
interface AreaGroup {
  area: string;
  cases: CaseResult[];
  counts: Record<Verdict, number>;
}

/** An all-zero verdict count. */
function zeroCounts(): Record<Verdict, number> {
  return { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, KNOWN: 0 };
}

/** Groups cases by area in specification order, keeping run order inside each area. */
export function groupByArea(cases: readonly CaseResult[]): AreaGroup[] {
  const groups = new Map<string, AreaGroup>();
  for (const c of cases) {
    let g = groups.get(c.area);
    if (!g) {
      g = { area: c.area, cases: [], counts: zeroCounts() };
      groups.set(c.area, g);
    }
    g.cases.push(c);
    g.counts[c.verdict] = (g.counts[c.verdict] ?? 0) + 1;
  }
  return [...groups.values()].sort((a, b) => compareAreas(a.area, b.area));
}

/** Cases sorted for reading: most urgent verdict first, then area order, then run order. */
export function urgentFirst(cases: readonly CaseResult[]): CaseResult[] {
  return cases
    .map((c, i) => ({ c, i }))
    .sort((x, y) => VERDICT_ORDER.indexOf(x.c.verdict) - VERDICT_ORDER.indexOf(y.c.verdict) || compareAreas(x.c.area, y.c.area) || x.i - y.i)
    .map((x) => x.c);
}

/** The worst verdict among counts, for colouring an area. */
export function worstVerdict(counts: Record<Verdict, number>): Verdict {
  return VERDICT_ORDER.find((v) => counts[v] > 0) ?? 'PASS';
}
