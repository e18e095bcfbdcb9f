import type { MetricDelta, RunComparison, RunLabel } from './comparison.js';

/*
 * `report compare --json`: the comparison in snake_case, as every command's
 * `--json` prints it (the reference API's wire format).
 */

function label(r: RunLabel): Record<string, unknown> {
  return { run_id: r.runId, kind: r.kind, file: r.file, started_at: r.startedAt, duration_ms: r.durationMs, verdict: r.verdict };
}

function metric(m: MetricDelta): Record<string, unknown> {
  return {
    metric: m.metric,
    operation: m.op,
    outcome: m.outcome,
    base: m.base ?? null,
    new: m.new ?? null,
    change: m.change ?? null,
    relative: m.relative ?? null,
    base_interval: m.baseInterval ? [m.baseInterval.lo, Number.isFinite(m.baseInterval.hi) ? m.baseInterval.hi : null] : null,
    new_interval: m.newInterval ? [m.newInterval.lo, Number.isFinite(m.newInterval.hi) ? m.newInterval.hi : null] : null,
    beyond_limit: m.beyondLimit,
    beyond_noise: m.beyondNoise,
    not_judged: m.notJudged ?? null,
    regression: m.regression,
    improvement: m.improvement,
  };
}

/** The comparison as one snake_case JSON object: labels, counts, changed cases, every load metric, gates. */
export function compareJson(c: RunComparison, extra: { exitCode: number; reportDir: string; files: string[] }): Record<string, unknown> {
  return {
    regressed: c.regressed,
    newly_inconclusive: c.newlyInconclusive,
    exit_code: extra.exitCode,
    report_dir: extra.reportDir,
    files: extra.files,
    base: label(c.base),
    new: label(c.new),
    counts: {
      newly_failing: c.counts.newlyFailing,
      regressions: c.counts.regressions,
      newly_broken_gates: c.counts.newlyBrokenGates,
      fixed: c.counts.fixed,
      improvements: c.counts.improvements,
      unchanged: c.unchanged,
    },
    cases: c.cases.map((d) => ({
      id: d.id,
      area: d.area,
      title: d.title,
      change: d.change,
      base_verdict: d.base?.verdict ?? null,
      base_message: d.base?.message ?? null,
      new_verdict: d.new?.verdict ?? null,
      new_message: d.new?.message ?? null,
    })),
    load: c.load ? { limits: c.load.limits, metrics: c.load.metrics.map(metric) } : null,
    gates: c.gates.map((g) => ({
      source: g.source,
      base_passed: g.base.passed,
      base_actual: g.base.actual ?? null,
      new_passed: g.new.passed,
      new_actual: g.new.actual ?? null,
      newly_broken: g.newlyBroken,
    })),
    notes: c.notes,
  };
}
