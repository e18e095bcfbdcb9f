import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (measured; docs/testing.md).
 * Within a tier they start before the others, so that none of them starts
 * last and holds up the end: on a fresh clone vitest has no durations of its
 * own yet and would start the largest files first.
 */
const LONGEST_FIRST = [
  'test/cli/load-ci.test.ts',
  'test/cli/regression-gates.test.ts',
  'test/selftest/selftest-all.test.ts',
  'test/docs/doc-blocks.test.ts',
  'test/hostile/secret-echo.test.ts',
  'test/runner/real-time-suite.test.ts',
  'test/runner/latency-mode.test.ts',
  'test/browser/report-pages.test.ts',
  'test/selftest/selftest-few.test.ts',
  'test/hostile/special-files.test.ts',
  'test/hostile/hostile-waits.test.ts',
  'test/checks/webhooks/webhook-timing-process.test.ts',
  'test/cli/run.test.ts',
  'test/cli/known-issues.test.ts',
  'test/cli/load.test.ts',
  'test/properties/real-time.test.ts',
  'test/runner/suite-plan.test.ts',
  'test/properties/openapi-inputs.test.ts',
  'test/runner/busy-target.test.ts',
  'test/checks/ratelimit/ratelimit-on-mock.test.ts',
  'test/certify/plan.test.ts',
];

/** Vitest's own order (tier by tier, the failed and the slow first by its cache), with the known longest files moved to the front of their tier. */
export class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId).replaceAll('\\', '/'));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files of equal rank keep vitest's order, and the tiers (group orders) stay apart.
    return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}
