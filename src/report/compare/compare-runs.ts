import { HarnessError } from '../../errors/harness-error.js';
import type { Threshold } from '../../load/gate/gates.js';
import { evaluateLoadGates } from '../../load/gate/load-metrics.js';
import type { RunResult } from '../../results/run-result.js';
import type { SelftestResult } from '../../results/selftest-result.js';
import { diffCases, type ComparableCase } from './case-diff.js';
import type { GatePair, RegressionLimits, RunComparison, RunLabel } from './comparison.js';
import { diffLoads } from './load-diff.js';
import type { ReadRun } from './read-run.js';

/** What each kind of run is, for messages. */
const KIND_NAME: Record<RunResult['kind'], string> = {
  suite: 'a suite run',
  load: 'a load run',
  certificate: 'a client certification',
  selftest: 'a self-test',
};

/** A self-test's outcomes as cases: each defect caught or not, and the clean runs with their false alarms. */
function selftestCases(r: SelftestResult): ComparableCase[] {
  const defects = r.defects.map((d): ComparableCase => ({
    id: `defect:${d.defect}`,
    title: d.description,
    area: 'defects',
    verdict: d.caught ? 'PASS' : 'FAIL',
    message: d.error
      ? `the run did not complete: ${d.error}`
      : d.caught
        ? `caught by ${d.caughtBy.join(', ')}`
        : `not caught (expected ${d.expected.join(', ') || 'no check'})`,
  }));
  // One case for the clean runs, so that alarms gone read as fixed, not as cases removed.
  const alarms = [...new Map(r.clean.flatMap((c) => c.falseAlarms).map((f) => [f.id, f])).values()];
  const errors = r.clean.filter((c) => c.error !== undefined);
  const clean: ComparableCase = {
    id: 'clean-runs',
    title: 'no check fails against the clean mock',
    area: 'clean runs',
    verdict: alarms.length + errors.length > 0 ? 'FAIL' : 'PASS',
    message:
      alarms.length + errors.length === 0
        ? `${r.clean.length} clean run(s) without a false alarm`
        : [...alarms.map((f) => `${f.id}: ${f.message}`), ...errors.map((c) => `clean run ${c.index} did not complete: ${c.error}`)].join('; '),
  };
  return [...defects, clean];
}

function casesOf(r: RunResult): ComparableCase[] {
  if (r.kind === 'selftest') return selftestCases(r);
  return r.cases.map((c) => ({ id: c.id, title: c.title, area: c.area, verdict: String(c.verdict), message: c.message }));
}

function labelOf(read: ReadRun): RunLabel {
  const r = read.result;
  return {
    file: read.file,
    runId: r.runId,
    kind: r.kind,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
    verdict: r.verdict,
    command: r.command,
    target: r.kind === 'selftest' ? 'embedded mock' : r.target.name,
  };
}

/** Options of a comparison. */
interface CompareOptions {
  /** Gates evaluated on both runs (load runs only). */
  thresholds: readonly Threshold[];
  limits: RegressionLimits;
}

/**
 * Compares two runs of the same kind: cases by id, and for loads every
 * metric and the gates on both. Runs of different kinds cannot be compared
 * (E_USAGE naming both kinds); nor can gates be applied to runs that are not loads.
 */
export function compareRuns(baseRead: ReadRun, newRead: ReadRun, options: CompareOptions): RunComparison {
  const base = baseRead.result;
  const now = newRead.result;
  if (base.kind !== now.kind) {
    throw new HarnessError(
      'E_USAGE',
      `cannot compare ${KIND_NAME[base.kind]} (${baseRead.file}) with ${KIND_NAME[now.kind]} (${newRead.file}): both runs must be of the same kind`,
    );
  }
  if (options.thresholds.length > 0 && base.kind !== 'load') {
    throw new HarnessError('E_USAGE', `--threshold applies to load runs only; ${baseRead.file} is ${KIND_NAME[base.kind]}`);
  }
  const notes: string[] = [];
  if (base.runId === now.runId) notes.push(`both sides are the same run (${now.runId})`);
  const { deltas, unchanged } = diffCases(casesOf(base), casesOf(now));
  let load: RunComparison['load'];
  const gates: GatePair[] = [];
  if (base.kind === 'load' && now.kind === 'load') {
    load = diffLoads(base.load, now.load, options.limits);
    const before = evaluateLoadGates(base.load, options.thresholds);
    const after = evaluateLoadGates(now.load, options.thresholds);
    for (let i = 0; i < after.length; i++)
      gates.push({ source: after[i]!.source, base: before[i]!, new: after[i]!, newlyBroken: before[i]!.passed && !after[i]!.passed });
    if (
      load.metrics.some((m) => m.key !== 'max' && m.base !== undefined && m.new !== undefined && (m.baseInterval === undefined || m.newInterval === undefined))
    ) {
      notes.push('some figures carry no histogram (a result of an older version): those are judged by the limit alone');
    }
  }
  const count = (c: string): number => deltas.filter((d) => d.change === c).length;
  const counts = {
    newlyFailing: count('newly-failing'),
    fixed: count('fixed'),
    regressions: load?.metrics.filter((m) => m.regression).length ?? 0,
    improvements: load?.metrics.filter((m) => m.improvement).length ?? 0,
    newlyBrokenGates: gates.filter((g) => g.newlyBroken).length,
  };
  const newlyInconclusive = now.verdict === 'INCONCLUSIVE' && base.verdict !== 'INCONCLUSIVE';
  if (newlyInconclusive) notes.unshift(`NEW is INCONCLUSIVE where BASE was ${base.verdict}${now.verdictReason ? `: ${now.verdictReason}` : ''}`);
  return {
    schema: 'svc-harness/compare@1',
    base: labelOf(baseRead),
    new: labelOf(newRead),
    cases: deltas,
    unchanged,
    load,
    gates,
    counts,
    newlyInconclusive,
    regressed: newlyInconclusive || counts.newlyFailing + counts.regressions + counts.newlyBrokenGates > 0,
    notes,
  };
}
