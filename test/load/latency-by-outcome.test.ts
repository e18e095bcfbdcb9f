import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../src/load/measure/latency-histogram.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { mergeLoadResults } from '../../src/load/merge/merge-load-results.js';
import { sampleLoadResult } from './_load-result.js';
import { req } from './_request.js';

/** 3 searches answered 2xx in 40 ms, 5 answered 429 in 1 ms, 2 answered 502 in 400 ms, 1 never answered. */
function recorded(rec = new LoadRecorder({ rateLimitedStatus: 429 }), t = 1_000_000): LoadRecorder {
  for (let i = 0; i < 3; i++) rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 40, latencyMs: 40, status: 200 }));
  for (let i = 0; i < 5; i++)
    rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 1, latencyMs: 1, status: 429, retryAfterS: 30 }));
  for (let i = 0; i < 2; i++) rec.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: t, receivedAt: t + 400, latencyMs: 400, status: 502 }));
  rec.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: t, receivedAt: t + 1, latencyMs: 0, status: 0 }));
  return rec;
}

describe('latency split by outcome', () => {
  it('keeps 2xx, 429 and other answers apart, per operation and for all, each histogram exact', () => {
    const { operations } = recorded().figures();
    const all = operations.all!.latencyByOutcome!;
    expect(all['2xx'].latency).toMatchObject({ count: 3, p50: expect.closeTo(40, 0), max: expect.closeTo(40, 0) });
    expect(all['429'].latency).toMatchObject({ count: 5, p50: expect.closeTo(1, 0.1), max: expect.closeTo(1, 0.1) });
    expect(all.other.latency).toMatchObject({ count: 2, p50: expect.closeTo(400, -1) });
    // The mix hides the 2xx latency: its median is a 429's.
    expect(operations.all!.latency.p50).toBeCloseTo(1, 1);
    expect(operations.search!.latencyByOutcome!['2xx'].latency.count).toBe(3);
    expect(operations.search!.latencyByOutcome!.other.latency.count).toBe(0);
    expect(operations.book!.latencyByOutcome!.other.latency.count).toBe(2);
    // The outcomes add up to the operation's histogram (the unanswered request has no latency).
    const sum = new LatencyHistogram();
    for (const o of ['2xx', '429', 'other'] as const) sum.add(LatencyHistogram.decode(all[o].histogram));
    expect(sum.encode()).toBe(operations.all!.histogram);
  });

  it('counts every latency once in its second, when seconds interleave and when figures are taken mid-run', () => {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    const t = 5_000_000;
    // Seconds 0, 1, then 0 again (a late answer), figures taken, then more of second 1.
    rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 100, latencyMs: 10, status: 200 }));
    rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 1_100, latencyMs: 20, status: 200 }));
    rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 200, latencyMs: 30, status: 429, retryAfterS: 5 }));
    const mid = rec.figures();
    expect(mid.operations.search!.latency.count).toBe(3);
    rec.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: t, receivedAt: t + 1_900, latencyMs: 40, status: 200 }));
    const { operations, series } = rec.figures();
    expect(operations.search!.latency.count).toBe(4);
    expect(operations.search!.latencyByOutcome!['2xx'].latency.count).toBe(3);
    expect(operations.search!.latencyByOutcome!['429'].latency.count).toBe(1);
    const bySecond = new Map(series.map((s) => [s.second, LatencyHistogram.decode(s.histogram)]));
    expect(bySecond.get(5_000)!.count).toBe(2);
    expect(bySecond.get(5_000)!.percentileMs(100)).toBeCloseTo(30, 0);
    expect(bySecond.get(5_001)!.count).toBe(2);
    expect(bySecond.get(5_001)!.percentileMs(100)).toBeCloseTo(40, 0);
  });

  it('merges across shards exactly, and leaves the split out when a part predates it', () => {
    const a = sampleLoadResult(0, {});
    const rA = recorded();
    const rB = recorded(new LoadRecorder({ rateLimitedStatus: 429 }), 1_002_000);
    const fa = rA.figures();
    const fb = rB.figures();
    const merged = mergeLoadResults([
      { ...a, operations: fa.operations, series: fa.series },
      { ...a, operations: fb.operations, series: fb.series },
    ]);
    const ok = new LatencyHistogram();
    for (let i = 0; i < 6; i++) ok.recordMs(40);
    expect(merged.operations.all!.latencyByOutcome!['2xx'].histogram).toBe(ok.encode());
    expect(merged.operations.all!.latencyByOutcome!['429'].latency.count).toBe(10);
    expect(merged.operations.book!.latencyByOutcome!.other.latency.count).toBe(4);

    const old = structuredClone(fb.operations);
    for (const op of Object.values(old)) delete op.latencyByOutcome;
    const mixed = mergeLoadResults([
      { ...a, operations: fa.operations, series: fa.series },
      { ...a, operations: old, series: fb.series },
    ]);
    expect(mixed.operations.all!.count).toBe(22);
    expect(mixed.operations.all!.latencyByOutcome).toBeUndefined();
  });

  it('never reads a percentile above the largest latency recorded (an HDR bucket can reach past it)', () => {
    const h = new LatencyHistogram();
    h.recordMs(1016.32);
    h.recordMs(1016.32);
    const l = h.summary();
    expect(h.percentileMs(99)).toBeGreaterThan(l.max);
    for (const k of ['p50', 'p90', 'p95', 'p99', 'p99_9'] as const) expect(l[k]).toBeLessThanOrEqual(l.max);
  });
});
