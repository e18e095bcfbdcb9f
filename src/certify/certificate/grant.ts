import type { Verdict } from '../../results/model.js';

/** The rule of every certificate, as written into it. */
export const GRANT_RULE = 'granted only when every required test passed and no test failed or errored; a skipped test is named and never counts as passed';

/** Whether a certificate is granted, and which tests refused it. */
export function decideGrant(tests: ReadonlyArray<{ id: string; required: boolean; verdict: Verdict }>): {
  granted: boolean;
  refusedBy: string[];
  skipped: string[];
} {
  const refusedBy = tests.filter((t) => t.verdict === 'FAIL' || t.verdict === 'ERROR' || (t.required && t.verdict !== 'PASS')).map((t) => t.id);
  const skipped = tests.filter((t) => t.verdict === 'SKIP').map((t) => t.id);
  // An empty plan proves nothing.
  return { granted: tests.length > 0 && refusedBy.length === 0, refusedBy, skipped };
}
