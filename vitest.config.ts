import { defineConfig } from 'vitest/config';
import { TierSequencer } from './test/setup/tier-sequencer.js';

/**
 * Two tiers, one command (`npm test`, or `npx vitest run` after a build),
 * run at once, their files in one queue that shares six workers
 * (`test/setup/tier-sequencer.ts` orders it):
 *
 * - `unit`: in-process and CPU-bound: no real-time waits, no child process.
 *   Each worker reuses its imports from file to file (`isolate: false`): a
 *   unit test leaves no global state behind.
 * - `e2e`: the files below. They spawn the CLI (from `dist/`, which this
 *   tier's setup rebuilds when a source is newer, before any file starts),
 *   wait in real time (a load, a real-time suite, a rate-limit window), or
 *   run the whole suite many times (the self-test). Most of their time is
 *   spent waiting: the unit files take the CPU they leave idle, and more
 *   files run at once than there are cores.
 *
 * A new file is a unit test unless it is listed here. What each tier costs:
 * docs/testing.md.
 */
const E2E = [
  // Every defect against the checks meant to catch it, and the whole suite on the clean mock (CPU-bound; the longest file, so it starts first); a few defects, focused and whole.
  'test/selftest/selftest-all.test.ts',
  'test/selftest/selftest-few.test.ts',
  // The whole suite in real time and against a mock 25 ms away.
  'test/runner/real-time-suite.test.ts',
  'test/runner/latency-mode.test.ts',
  // Rate-limit checks waiting out real windows, and loads (always in real time) in-process.
  'test/checks/ratelimit/ratelimit-realtime.test.ts',
  // WH-05's delays against a mock in another process, its clock moved and in real time.
  'test/checks/webhooks/webhook-timing-process.test.ts',
  // The properties in real time (5 s windows and quotes).
  'test/properties/real-time.test.ts',
  'test/load/graceful-stop.test.ts',
  'test/load/latency-by-outcome.test.ts',
  'test/load/live-load.test.ts',
  'test/load/push-limits-retry-after.test.ts',
  'test/load/rate-limit-status.test.ts',
  'test/load/run-load-defects.test.ts',
  'test/load/run-load.test.ts',
  'test/load/target-dies.test.ts',
  // Back-to-back loads against mocks in other processes, compared and gated.
  'test/cli/regression-gates.test.ts',
  // A load pushing to a real Prometheus (remote-write receiver), its figures read back through the query API.
  'test/outputs/prometheus-remote-write.test.ts',
  // The report pages and the live page of a load in Chromium (each page from a real run of the CLI).
  'test/browser/**/*.test.ts',
  // The packed package installed in an empty folder.
  'test/package/**/*.test.ts',
  // The CLI as a process: exit codes, signals, files a user hands it, targets that misbehave.
  'test/cli/hostile-targets.test.ts',
  'test/hostile/hostile-waits.test.ts',
  'test/cli/json-errors.test.ts',
  'test/cli/known-issues.test.ts',
  'test/cli/load-ci.test.ts',
  'test/cli/load-interrupted.test.ts',
  'test/cli/load.test.ts',
  'test/cli/report-compare.test.ts',
  'test/cli/run-interrupted.test.ts',
  'test/cli/run.test.ts',
  'test/hostile/first-probe.test.ts',
  'test/hostile/openapi-documents.test.ts',
  'test/hostile/profile-values.test.ts',
  'test/hostile/prune.test.ts',
  'test/hostile/read-files.test.ts',
  'test/hostile/report-merge-files.test.ts',
  'test/hostile/report-compare-trend-files.test.ts',
  'test/hostile/special-files.test.ts',
  'test/hostile/malformed-reports.test.ts',
  'test/hostile/scenario-files.test.ts',
  'test/hostile/secret-echo.test.ts',
  'test/hostile/verify-certificate.test.ts',
  'test/mock/cli.test.ts',
  'test/profile/url-target.test.ts',
  'test/report/prune-run-folders.test.ts',
  'test/report/replay-pairs.test.ts',
  // Example clients and the CI and Kubernetes recipes, run as processes.
  'test/certify/client/certify-client.test.ts',
  'test/examples/example-clients.test.ts',
  'test/examples/k8s-recipes.test.ts',
  'test/hostile/k8s-extract.test.ts',
  // Every command block of the README and of docs/, run as a user would, its output checked.
  'test/docs/doc-blocks.test.ts',
];

/**
 * Node 20 reads the whole bundle `NODE_EXTRA_CA_CERTS` names each time a
 * process starts (Debian's, 220 KB: `node -e 0` takes 70 to 110 ms of CPU
 * with it, 20 to 30 ms without), and the tests start more than 300 Node
 * processes that talk to 127.0.0.1 alone. They start without it; npm, which
 * may need it to reach a registry, gets it back (`test/package/`).
 */
const EXTRA_CA_CERTS = process.env['NODE_EXTRA_CA_CERTS'];
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    // The usual output, and the results as JSON for `.ci/print-failures.mjs` to summarise a failed run at the end of the log.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-output/vitest-results.json' },
    hookTimeout: 120_000,
    pool: 'forks',
    env: EXTRA_CA_CERTS === undefined ? {} : { SVC_HARNESS_TEST_NPM_CA_CERTS: EXTRA_CA_CERTS },
    sequence: { sequencer: TierSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: E2E,
          // One group (both tiers at once) has one count of workers, which vitest wants stated alike in each project.
          maxWorkers: 6,
          // A worker keeps the modules it imported from file to file (the sources and their dependencies, imported once per worker instead of once per file).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          maxWorkers: 6,
          sequence: { groupOrder: 0 },
          globalSetup: ['test/setup/built-cli.ts'],
        },
      },
    ],
  },
});
