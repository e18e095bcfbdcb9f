import type { LatencySummary } from '../results/load-result.js';
import type { RunResult } from '../results/run-result.js';

/** What names the run on every series: Prometheus labels, OpenTelemetry resource attributes. */
export interface RunIdentity {
  runId: string;
  /** The command that ran (`load`, `run`). */
  command: string;
  /** The target profile's name. */
  target: string;
  /** `i/N` for a shard of a load, `all` otherwise. */
  shard: string;
}

/** The percentiles the harness computes (HDR), as the report names them, with the quantile each is. */
const PERCENTILES: ReadonlyArray<readonly [keyof LatencySummary, string]> = [
  ['p50', '0.5'],
  ['p90', '0.9'],
  ['p95', '0.95'],
  ['p99', '0.99'],
  ['p99_9', '0.999'],
];

/** The report's latency classes, named as the request outcomes are (`other` is errors and expected answers together). */
const OUTCOME_OF_CLASS: Readonly<Record<string, string>> = { '2xx': 'ok', '429': 'rateLimited', other: 'other' };

/** One harness-computed percentile of one operation and outcome (`all` for every outcome), in seconds. */
export interface PercentileFigure {
  operation: string;
  outcome: string;
  quantile: string;
  seconds: number;
}

/** What a finished run adds to the figures sent while it ran: its duration, verdicts by area, gates, the harness's percentiles. */
export interface FinalFigures {
  durationS: number;
  verdicts: Array<{ area: string; verdict: string; count: number }>;
  gates: Array<{ id: string; gate: string; passed: boolean }>;
  percentiles: PercentileFigure[];
}

/** Counts of cases by area and verdict. */
export function verdictCounts(cases: ReadonlyArray<{ area: string; verdict: string }>): FinalFigures['verdicts'] {
  const m = new Map<string, { area: string; verdict: string; count: number }>();
  for (const c of cases) {
    const key = `${c.area}\u0000${c.verdict}`;
    const v = m.get(key);
    if (v) v.count += 1;
    else m.set(key, { area: c.area, verdict: c.verdict, count: 1 });
  }
  return [...m.values()];
}

/** The final figures of a run result, read from it as its report holds them. */
export function finalFigures(result: RunResult): FinalFigures {
  const cases = 'cases' in result ? result.cases : [];
  const out: FinalFigures = { durationS: result.durationMs / 1000, verdicts: verdictCounts(cases), gates: [], percentiles: [] };
  if (result.kind !== 'load') return out;
  const load = result.load;
  out.gates = load.gates.map((g) => ({ id: g.id, gate: g.source, passed: g.passed }));
  for (const [operation, op] of Object.entries(load.operations)) {
    if (op.count === 0) continue;
    const summaries: Array<[string, LatencySummary]> = [['all', op.latency]];
    for (const [cls, l] of Object.entries(op.latencyByOutcome ?? {})) if (l.latency.count > 0) summaries.push([OUTCOME_OF_CLASS[cls] ?? cls, l.latency]);
    for (const [outcome, l] of summaries)
      for (const [key, quantile] of PERCENTILES) out.percentiles.push({ operation, outcome, quantile, seconds: l[key] / 1000 });
  }
  return out;
}
