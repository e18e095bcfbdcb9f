import type { LoadResult, LoadVerdict } from '../results/load-result.js';
import type { LoadSpan } from './drive-load.js';
import type { LoadPlan } from './generate/load-plan.js';
import type { LoadRecorder } from './measure/load-recorder.js';

/** What the run knows besides the recorder, to state the result of the load. */
interface LoadResultFacts {
  plan: LoadPlan;
  span: LoadSpan;
  agencies: readonly string[];
  connections: number;
  pushLimits: boolean;
  shard?: { index: number; count: number } | undefined;
  verdicts: LoadVerdict[];
  notes: string[];
}

/** The figures of a load (totals, rates, per operation, per second, spectrum) with its verdicts; gates are evaluated on it afterwards. */
export function loadResultOf(recorder: LoadRecorder, f: LoadResultFacts): LoadResult {
  const figures = recorder.figures();
  const durationS = Math.max(0.001, (f.span.finishedAt - f.span.startedAt) / 1000);
  const totals = recorder.counts();
  const modes: LoadResult['modes'] = [];
  if (f.connections > 0) modes.push(f.plan.mode);
  if (f.pushLimits) modes.push('push-limits');
  return {
    schema: 'svc-harness/load@1',
    modes,
    shards: f.shard ? [f.shard] : [],
    agencies: [...f.agencies],
    scenarios: f.plan.mode === 'scenarios' ? f.plan.journeys.map((j) => j.name) : [],
    connections: f.connections,
    startedAt: f.span.startedAt,
    finishedAt: f.span.finishedAt,
    durationS,
    interrupted: f.span.interrupted,
    clock: 'real-time',
    totals,
    rps: totals.requests / durationS,
    errorRate: totals.requests ? totals.errors / totals.requests : 0,
    rateLimitedRate: totals.requests ? totals.rateLimited / totals.requests : 0,
    operations: figures.operations,
    spectrum: figures.all.spectrum(),
    series: figures.series,
    verdicts: f.verdicts,
    gates: [],
    notes: f.notes,
  };
}
