import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { req } from './_request.js';

/** A small load result: `n` searches of agency-1, a second apart, every 7th a 429. */
export function sampleLoadResult(n = 20, over: Partial<LoadResult> = {}): LoadResult {
  const rec = new LoadRecorder({ rateLimitedStatus: 429 });
  for (let i = 0; i < n; i++)
    rec.record(
      req({
        op: 'search',
        agency: 'agency-1',
        bucket: 'read',
        sentAt: 1_000_000 + i * 10,
        receivedAt: 1_000_005 + i * 10,
        latencyMs: 5,
        status: i % 7 === 0 ? 429 : 200,
      }),
    );
  return loadResultOf(rec, over);
}

/** The load result of what `rec` recorded, over 10 s, one connection of agency-1, `over` laid on top. */
export function loadResultOf(rec: LoadRecorder, over: Partial<LoadResult> = {}): LoadResult {
  const f = rec.figures();
  const c = rec.counts();
  return {
    schema: 'svc-harness/load@1',
    modes: ['scenarios'],
    shards: [],
    agencies: ['agency-1'],
    scenarios: [],
    connections: 1,
    startedAt: 1_000_000,
    finishedAt: 1_010_000,
    durationS: 10,
    interrupted: false,
    clock: 'real-time',
    totals: c,
    rps: c.requests / 10,
    errorRate: 0,
    rateLimitedRate: c.rateLimited / c.requests,
    operations: f.operations,
    spectrum: f.all.spectrum(),
    series: f.series,
    verdicts: [],
    gates: [],
    notes: [],
    ...over,
  };
}
