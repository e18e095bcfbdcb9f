import { compareAreas } from '../_internal/order.js';
import type { RunKind } from '../../results/run-result.js';
import type { ReadRun } from '../compare/read-run.js';

/** Cases of one area in one run: passed, failed (FAIL or ERROR), known failures (KNOWN), and the rest. */
export interface AreaCounts {
  passed: number;
  failed: number;
  known: number;
  other: number;
}

/** What the trend page plots of one run. */
export interface TrendPoint {
  runId: string;
  kind: RunKind;
  file: string;
  startedAt: string;
  verdict: string;
  durationS: number;
  /** By area, for runs made of cases (a self-test has none). */
  areas: Record<string, AreaCounts>;
  /** For loads: throughput and p95 per operation (`all` for every operation). */
  load?: { rps: number; p95: Record<string, number> } | undefined;
}

/** The trend's figures of each run, in the runs' order. */
export function trendPoints(runs: readonly ReadRun[]): TrendPoint[] {
  return runs.map(({ file, result: r }) => {
    const areas: Record<string, AreaCounts> = {};
    if (r.kind !== 'selftest') {
      for (const c of r.cases) {
        const a = (areas[c.area] ??= { passed: 0, failed: 0, known: 0, other: 0 });
        const v = String(c.verdict);
        if (v === 'PASS') a.passed++;
        else if (v === 'FAIL' || v === 'ERROR') a.failed++;
        else if (v === 'KNOWN') a.known++;
        else a.other++;
      }
    }
    const load =
      r.kind === 'load'
        ? {
            rps: r.load.rps,
            p95: Object.fromEntries(
              Object.entries(r.load.operations)
                .filter(([, o]) => o.count > 0)
                .map(([op, o]) => [op, o.latency.p95]),
            ),
          }
        : undefined;
    return { runId: r.runId, kind: r.kind, file, startedAt: r.startedAt, verdict: r.verdict, durationS: r.durationMs / 1000, areas, load };
  });
}

/** Every area any run has, in the specification's order. */
export function trendAreas(points: readonly TrendPoint[]): string[] {
  return [...new Set(points.flatMap((p) => Object.keys(p.areas)))].sort(compareAreas);
}
