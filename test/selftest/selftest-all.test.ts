import { describe, expect, test } from 'vitest';
import { DEFECT_NAMES } from '../../src/mock/defects/catalogue.js';
import { runSelftest } from '../../src/selftest/run-selftest.js';

/**
 * The whole self-test, in-process and focused (each defect's run executes the
 * cases that can catch it; the clean run, the whole suite): every defect of
 * the catalogue is caught by one of its expected checks, the clean mock
 * raises no false alarm, and every check alone catches some defect or carries
 * its documented reason.
 */
describe('the whole self-test', () => {
  test('catches 100% of the defects with zero false alarms', { timeout: 900_000 }, async () => {
    // Two runs at once: in one process, more finish no sooner and only lengthen each other's request latencies (docs/testing.md).
    const result = await runSelftest({ repeatClean: 1, concurrency: 2, mode: 'focused' });
    const escaped = result.defects.filter((d) => !d.caught).map((d) => `${d.defect}${d.error ? ` (${d.error})` : ''}`);
    const alarms = result.clean.flatMap((c) => [...c.falseAlarms.map((f) => `${f.id}: ${f.message}`), ...(c.error ? [c.error] : [])]);
    expect(escaped).toEqual([]);
    expect(alarms).toEqual([]);
    expect(result.score).toEqual({ caught: DEFECT_NAMES.length, total: DEFECT_NAMES.length });
    expect(result.unexplainedChecks).toEqual([]);
    expect(result.verdict).toBe('PASS');
    // Each focused run ran its selection and nothing more (one case per id: the baseline, the expected checks and properties).
    const strays = result.defects.filter((d) => d.focus !== undefined && d.cases !== d.focus.length).map((d) => `${d.defect}: ${d.cases} cases`);
    expect(strays).toEqual([]);
  });
});
