/**
 * Benchmark (not a test): how close a real-time run's wall time comes to the
 * estimate it announces. Runs the suite of `test/runner/real-time-suite.test.ts`
 * (every check and the scenarios, clock control none, a mock with a 2 s
 * window) `runs` times and prints, for each, the wall time, the estimate and
 * their ratio; the figure judged is the worst run's accuracy,
 * min(estimate / wall, wall / estimate): 1 when they agree, 0.8 when they
 * are 20% apart either way. `npm run bench` compares it with its accepted
 * value in bench/baseline.json.
 *
 *   node --import tsx bench/real-time-estimate.bench.ts [runs=1]
 */
import { loadavg } from 'node:os';
import { runRealTimeSuite, startRealTimeMock } from '../test/helpers/real-time-suite.js';

const runs = Number(process.argv[2] ?? 1);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node --import tsx bench/real-time-estimate.bench.ts [runs=1]');
  process.exit(2);
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

console.log(`real-time estimate: ${runs} run(s) of the suite in real time, load average ${load()}`);
const accuracies: number[] = [];
/** Runs whose wall time fell outside 0.8 to 1.2 times their estimate. */
let outside = 0;
let lastWall = 0;
let lastEstimate = 0;
const mock = await startRealTimeMock();
try {
  for (let i = 1; i <= runs; i++) {
    const { events, wallMs, result } = await runRealTimeSuite(mock);
    const plan = events.find((e) => e.type === 'plan');
    const estimate = plan?.type === 'plan' ? (plan.estimateMs ?? 0) : 0;
    const alarms = result.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').length;
    const accuracy = estimate > 0 ? Math.min(estimate / wallMs, wallMs / estimate) : 0;
    accuracies.push(accuracy);
    if (!(wallMs > estimate * 0.8 && wallMs < estimate * 1.2)) outside += 1;
    lastWall = wallMs;
    lastEstimate = estimate;
    console.log(`  run ${i}: wall ${Math.round(wallMs)} ms, estimate ${estimate} ms, wall/estimate ${(wallMs / estimate).toFixed(3)}, ${alarms} FAIL or ERROR`);
  }
} finally {
  await mock.close();
}
const worst = Math.min(...accuracies);
// The bound the estimate aims at: a figure, not an assertion, since a busy machine stretches the waits' neighbours.
console.log(`worst accuracy ${worst.toFixed(3)}; ${outside} of ${runs} run(s) outside 0.8 to 1.2 times the estimate; load average at end ${load()}`);
console.log(
  `bench-figures ${JSON.stringify({
    ratios: { 'real-time suite: estimate accuracy, min(estimate/wall, wall/estimate), worst run': worst },
    figures: { 'real-time suite wall, ms (last run)': lastWall, 'real-time suite estimate, ms (last run)': lastEstimate },
  })}`,
);
