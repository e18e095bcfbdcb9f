import type { CheckCoverage, SelftestResult } from '../results/selftest-result.js';

/** The per-check rows a self-test report shows, and what they mean. */
interface CoverageView {
  rows: CheckCoverage[];
  /** One sentence saying what the rows are. */
  caption: string;
  /** True when the rows may name checks that alone catch nothing (whole catalogue only). */
  judgesNeed: boolean;
}

/**
 * Which checks a report lists. Over the whole catalogue: every check, so one
 * that alone catches no defect shows up with its reason or as unexplained.
 * Over chosen defects most checks had nothing to catch, so only the checks
 * that caught something are listed, and nothing is said about the rest.
 */
export function coverageView(r: SelftestResult): CoverageView {
  // A check is credited only where it is expected to catch (in either mode); a focused run leaves the other checks out, so their collateral failures go unseen.
  const focused =
    r.mode === 'focused' ? ' Each defect ran only the cases that can catch it, so its collateral failures are among those; --whole shows every one.' : '';
  if (r.wholeCatalogue) {
    return {
      rows: r.coverage,
      caption: `Every check, with the defects only it catches (as a check expected to catch them); a check that alone catches none needs a documented reason.${focused}`,
      judgesNeed: true,
    };
  }
  return {
    rows: r.coverage.filter((c) => c.catches.length > 0),
    caption: `The checks that caught one of the ${r.defects.length} chosen defects. Whether a check is needed at all is judged only by a self-test over the whole catalogue.${focused}`,
    judgesNeed: false,
  };
}
