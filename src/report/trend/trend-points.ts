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
  /** The target the run tested, `name (base URL)`: runs against different targets are never one series. */
  target: string;
  file: string;
  startedAt: string;
  verdict: string;
  durationS: number;
  /** By area, for runs made of cases (a self-test has none). */
  areas: Record<string, AreaCounts>;
  /** For loads: throughput and p95 per operation (`all` for every operation). */
  load?: { rps: number; p95: Record<string, number> } | undefined;
}

/** The bundled mock a self-test drives: its result names no target. */
const SELFTEST_TARGET = 'the bundled mock (self-test)';

function targetOf(r: ReadRun['result']): string {
  if (r.kind === 'selftest') return SELFTEST_TARGET;
  // An embedded mock listens on a new port each run: it is one target all the same.
  return `${r.target.name} (${r.target.embedded ? 'embedded mock' : r.target.baseUrl})`;
}

/** A load's shards, as `index/count` keys: a part has one of count, a merge all it merged. */
function shardKeys(r: ReadRun['result']): string[] {
  return r.kind === 'load' ? r.load.shards.map((s) => `${s.index}/${s.count}`) : [];
}

/** Whether load `part` began while load `merge` ran (a merge spans its parts: from the first start to the last end). */
function within(merge: ReadRun['result'], part: ReadRun['result']): boolean {
  if (merge.kind !== 'load' || part.kind !== 'load') return false;
  return merge.load.startedAt <= part.load.startedAt && part.load.startedAt <= merge.load.finishedAt;
}

/**
 * The runs the trend counts: a shard of a load whose merge is among the runs
 * is left out, so the same traffic is never counted twice (the merge of the
 * same target holds the shard, and began no later than it).
 */
function withoutMergedShards(runs: readonly ReadRun[]): ReadRun[] {
  const merges = runs.filter((x) => shardKeys(x.result).length > 1);
  return runs.filter(({ result: r }) => {
    const keys = shardKeys(r);
    if (keys.length !== 1) return true;
    return !merges.some(({ result: m }) => targetOf(m) === targetOf(r) && shardKeys(m).includes(keys[0]!) && within(m, r));
  });
}

/** The trend's figures of each run, in the runs' order; shards whose merge is given count through the merge alone. */
export function trendPoints(runs: readonly ReadRun[]): TrendPoint[] {
  return withoutMergedShards(runs).map(({ file, result: r }) => {
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
    return { runId: r.runId, kind: r.kind, target: targetOf(r), file, startedAt: r.startedAt, verdict: r.verdict, durationS: r.durationMs / 1000, areas, load };
  });
}

/** Every area any run has, in the specification's order. */
export function trendAreas(points: readonly TrendPoint[]): string[] {
  return [...new Set(points.flatMap((p) => Object.keys(p.areas)))].sort(compareAreas);
}

/** Every target of the runs, in the order they first appear. */
export function trendTargets(points: readonly TrendPoint[]): string[] {
  return [...new Set(points.map((p) => p.target))];
}
