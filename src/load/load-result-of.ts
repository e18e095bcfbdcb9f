import type { LoadResult, LoadVerdict } from '../results/load-result.js';
import type { LoadSpan } from './drive-load.js';
import type { LoadPlan } from './generate/load-plan.js';
import type { LoadRecorder } from './measure/load-recorder.js';

/** What ran: the plan, the agencies and how the load was driven. */
interface LoadRunFacts {
  plan: LoadPlan;
  agencies: readonly string[];
  connections: number;
  pushLimits: boolean;
  shard?: { index: number; count: number } | undefined;
}

/** What the run knows besides the recorder, to state the result of the load. */
interface LoadResultFacts extends LoadRunFacts {
  span: LoadSpan;
  verdicts: LoadVerdict[];
  notes: string[];
}

/** The figures of a load (totals, rates, per operation, per second, spectrum) with its verdicts; gates are evaluated on it afterwards. */
export function loadResultOf(recorder: LoadRecorder, f: LoadResultFacts): LoadResult {
  const figures = recorder.figures();
  return loadResult(f, f.span, {
    totals: recorder.counts(),
    operations: figures.operations,
    spectrum: figures.all.spectrum(),
    series: figures.series,
    verdicts: f.verdicts,
    notes: f.notes,
  });
}

/**
 * A load's result in the report's shape from its figures: what ran, when,
 * the totals and their rates, stated once for the report (at the end) and
 * for the live view (once a second); gates are evaluated on it afterwards.
 */
export function loadResult(
  f: LoadRunFacts,
  span: Pick<LoadSpan, 'startedAt' | 'finishedAt' | 'interrupted'>,
  figures: Pick<LoadResult, 'totals' | 'operations' | 'spectrum' | 'series' | 'verdicts' | 'notes'>,
): LoadResult {
  const durationS = Math.max(0.001, (span.finishedAt - span.startedAt) / 1000);
  const { totals } = figures;
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
    startedAt: span.startedAt,
    finishedAt: span.finishedAt,
    durationS,
    interrupted: span.interrupted,
    clock: 'real-time',
    totals,
    rps: totals.requests / durationS,
    errorRate: totals.requests ? totals.errors / totals.requests : 0,
    rateLimitedRate: totals.requests ? totals.rateLimited / totals.requests : 0,
    operations: figures.operations,
    spectrum: figures.spectrum,
    series: figures.series,
    verdicts: figures.verdicts,
    gates: [],
    notes: figures.notes,
  };
}
