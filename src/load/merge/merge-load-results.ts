import { HarnessError } from '../../errors/harness-error.js';
import { LatencyHistogram } from '../measure/latency-histogram.js';
import { LATENCY_OUTCOMES, type LoadResult, type LoadVerdict, type OperationFigures, type SecondFigures } from '../../results/load-result.js';
import { latencyByOutcome, secondFigures } from '../measure/load-recorder.js';

const SEVERITY: Record<LoadVerdict['verdict'], number> = { ERROR: 4, FAIL: 3, KNOWN: 3, WARN: 2, PASS: 1, SKIP: 0 };

/** Counts by key, most first (ties by key), as the recorder writes them. */
function mostFirst(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}

function mergeOps(parts: OperationFigures[]): OperationFigures {
  const hist = new LatencyHistogram();
  const statuses: Record<string, number> = {};
  const errorsBy: Record<string, number> = {};
  const expectedBy: Record<string, number> = {};
  let count = 0;
  let ok = 0;
  let rateLimited = 0;
  let errors = 0;
  let expected = 0;
  let cutOff = 0;
  for (const p of parts) {
    hist.add(LatencyHistogram.decode(p.histogram));
    count += p.count;
    ok += p.ok;
    rateLimited += p.rateLimited;
    errors += p.errors;
    expected += p.expected ?? 0;
    cutOff += p.cutOff ?? 0;
    for (const [k, v] of Object.entries(p.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    for (const [k, v] of Object.entries(p.errorsBy ?? {})) errorsBy[k] = (errorsBy[k] ?? 0) + v;
    for (const [k, v] of Object.entries(p.expectedBy ?? {})) expectedBy[k] = (expectedBy[k] ?? 0) + v;
  }
  const merged: OperationFigures = {
    count,
    ok,
    rateLimited,
    errors,
    expected,
    ...(cutOff > 0 ? { cutOff } : {}),
    ...(Object.keys(errorsBy).length > 0 ? { errorsBy: mostFirst(errorsBy) } : {}),
    ...(Object.keys(expectedBy).length > 0 ? { expectedBy: mostFirst(expectedBy) } : {}),
    statuses,
    latency: hist.summary(),
    histogram: hist.encode(),
  };
  // Split by outcome only when every part is: a part from an older version would be missing from the split.
  if (parts.every((p) => p.latencyByOutcome !== undefined)) {
    merged.latencyByOutcome = latencyByOutcome(
      LATENCY_OUTCOMES.map((o) => {
        const h = new LatencyHistogram();
        for (const p of parts) h.add(LatencyHistogram.decode(p.latencyByOutcome![o].histogram));
        return h;
      }),
    );
  }
  return merged;
}

/**
 * Merges the results of several load processes exactly: histograms are
 * added (never percentiles averaged), counts summed, per-second series added
 * second by second, verdicts unioned (for one id, the worst verdict wins),
 * gates left to be evaluated again on the merged figures.
 */
export function mergeLoadResults(results: readonly LoadResult[]): LoadResult {
  if (results.length === 0) throw new HarnessError('E_USAGE', 'nothing to merge: give at least one load result');
  const opNames = [...new Set(results.flatMap((r) => Object.keys(r.operations)))].filter((n) => n !== 'all').sort();
  const operations: Record<string, OperationFigures> = {};
  for (const name of [...opNames, 'all']) {
    operations[name] = mergeOps(results.flatMap((r) => (r.operations[name] ? [r.operations[name]] : [])));
  }
  const seconds = new Map<number, SecondFigures[]>();
  for (const r of results) for (const s of r.series) seconds.set(s.second, [...(seconds.get(s.second) ?? []), s]);
  const series = [...seconds.entries()]
    .sort(([a], [b]) => a - b)
    .map(([second, parts]) => {
      const hist = new LatencyHistogram();
      for (const p of parts) hist.add(LatencyHistogram.decode(p.histogram));
      const sum = (k: 'requests' | 'ok' | 'rateLimited' | 'errors') => parts.reduce((n, p) => n + p[k], 0);
      return secondFigures(second, hist, { requests: sum('requests'), ok: sum('ok'), rateLimited: sum('rateLimited'), errors: sum('errors') });
    });
  const verdicts = new Map<string, LoadVerdict>();
  for (const r of results) {
    for (const v of r.verdicts) {
      const prev = verdicts.get(v.id);
      if (!prev || SEVERITY[v.verdict] > SEVERITY[prev.verdict]) verdicts.set(v.id, v);
    }
  }
  const startedAt = Math.min(...results.map((r) => r.startedAt));
  const finishedAt = Math.max(...results.map((r) => r.finishedAt));
  const durationS = Math.max(...results.map((r) => r.durationS));
  const all = operations.all!;
  const totals = { requests: all.count, ok: all.ok, rateLimited: all.rateLimited, errors: all.errors, expected: all.expected ?? 0, cutOff: all.cutOff ?? 0 };
  const uniq = <T>(xs: T[]): T[] => [...new Set(xs)];
  const targets = results.map((r) => r.target);
  const names = uniq(targets.flatMap((t) => (t ? [t.name] : [])));
  const bases = uniq(targets.flatMap((t) => (t ? [t.baseUrl] : [])));
  // Shards of one load name one target; parts of several keep every name, so the report never claims one it did not run against.
  const target = names.length > 0 ? { name: names.join(' + '), baseUrl: bases.join(' + ') } : undefined;
  return {
    schema: 'svc-harness/load@1',
    ...(target ? { target } : {}),
    modes: uniq(results.flatMap((r) => r.modes)),
    shards: results.flatMap((r) => r.shards).sort((a, b) => a.index - b.index),
    agencies: uniq(results.flatMap((r) => r.agencies)),
    scenarios: uniq(results.flatMap((r) => r.scenarios)),
    connections: results.reduce((n, r) => n + r.connections, 0),
    startedAt,
    finishedAt,
    durationS,
    interrupted: results.some((r) => r.interrupted),
    clock: 'real-time',
    totals,
    // Shards run side by side: their rates add up over the longest of them.
    rps: durationS > 0 ? totals.requests / durationS : 0,
    errorRate: totals.requests ? totals.errors / totals.requests : 0,
    rateLimitedRate: totals.requests ? totals.rateLimited / totals.requests : 0,
    operations,
    spectrum: LatencyHistogram.decode(all.histogram).spectrum(),
    series,
    verdicts: [...verdicts.values()].sort((a, b) => a.id.localeCompare(b.id)),
    gates: [],
    notes: uniq(results.flatMap((r) => r.notes)),
  };
}
