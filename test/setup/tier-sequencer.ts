import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * The two tiers run at once, in one queue of files that share the workers
 * (vitest.config.ts). The queue is ordered so that the CPU is busy from the
 * first second to the last, in the order one run measured (docs/testing.md):
 *
 * 1. the four longest end-to-end files, which mostly wait (a certification's
 *    real Retry-After, loads back to back in real time) or take one CPU (the
 *    whole self-test): started first, none of them holds up the end;
 * 2. every unit file, the longest first: they take the CPU the first four
 *    leave idle, and they follow each other, so that a worker keeps its
 *    imports from one to the next (`isolate: false`);
 * 3. the other end-to-end files, the longest first.
 *
 * On a fresh clone vitest has no durations of its own, and would start the
 * largest files first.
 */
const FIRST = ['test/docs/doc-blocks.test.ts', 'test/cli/load-ci.test.ts', 'test/cli/regression-gates.test.ts', 'test/selftest/selftest-all.test.ts'];

const UNIT_LONGEST_FIRST = [
  'test/properties/openapi-inputs.test.ts',
  'test/runner/suite-plan.test.ts',
  'test/checks/ratelimit/ratelimit-on-mock.test.ts',
  'test/certify/plan.test.ts',
  'test/runner/busy-target.test.ts',
];

const E2E_LONGEST_FIRST = [
  'test/hostile/secret-echo.test.ts',
  'test/selftest/selftest-few.test.ts',
  'test/runner/real-time-suite.test.ts',
  'test/runner/latency-mode.test.ts',
  'test/hostile/hostile-waits.test.ts',
  'test/hostile/malformed-reports.test.ts',
  'test/browser/report-pages.test.ts',
  'test/checks/webhooks/webhook-timing-process.test.ts',
  'test/cli/known-issues.test.ts',
  'test/cli/run.test.ts',
  'test/cli/report-compare.test.ts',
  'test/properties/real-time.test.ts',
  'test/hostile/special-files.test.ts',
  'test/cli/load.test.ts',
  'test/cli/load-interrupted.test.ts',
  'test/checks/ratelimit/ratelimit-realtime.test.ts',
  'test/cli/hostile-targets.test.ts',
  'test/browser/live-page.test.ts',
  'test/load/run-load-defects.test.ts',
  'test/hostile/report-compare-trend-files.test.ts',
];

/** A file's place in the queue: the lists above in turn, each list's unnamed files after its named ones. */
function rank(file: string, isUnit: boolean): number {
  const first = FIRST.indexOf(file);
  if (first !== -1) return first;
  const [list, base] = isUnit ? [UNIT_LONGEST_FIRST, 100] : [E2E_LONGEST_FIRST, 200];
  const i = list.indexOf(file);
  return base + (i === -1 ? list.length : i);
}

/** Vitest's own order (the failed and the slow first, by its cache), arranged into the queue above. */
export class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rankOf = (f: TestSpecification): number => rank(relative(f.project.config.root, f.moduleId).replaceAll('\\', '/'), f.project.name === 'unit');
    // Array.prototype.sort is stable: files of equal rank keep vitest's order.
    return sorted.sort((a, b) => rankOf(a) - rankOf(b));
  }
}
