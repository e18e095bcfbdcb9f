import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../src/load/measure/latency-histogram.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { mergeLoadResults } from '../../src/load/merge/merge-load-results.js';
import { loadResultOf } from './_load-result.js';
import { req } from './_request.js';

function resultOf(rec: LoadRecorder, agencies: string[], verdicts: LoadResult['verdicts']): LoadResult {
  return loadResultOf(rec, { agencies, connections: 2, verdicts });
}

describe('mergeLoadResults', () => {
  it('adds histograms exactly: merged halves equal one histogram of every value; counts add', () => {
    const a = new LoadRecorder({ rateLimitedStatus: 429 });
    const b = new LoadRecorder({ rateLimitedStatus: 429 });
    const whole = new LatencyHistogram();
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 4000; i++) {
      const ms = rand() < 0.95 ? 1 + rand() * 20 : 50 + rand() * 900;
      const status = i % 7 === 0 ? 429 : 200;
      const rec = i % 2 === 0 ? a : b;
      const t = 1_000_000 + Math.floor(i / 2);
      rec.record(
        req({
          op: i % 3 === 0 ? 'book' : 'search',
          agency: i % 2 === 0 ? 'agency-1' : 'agency-2',
          bucket: 'read',
          sentAt: t,
          receivedAt: t + ms,
          latencyMs: ms,
          status,
        }),
      );
      whole.recordMs(ms);
    }
    const merged = mergeLoadResults([
      resultOf(a, ['agency-1'], [{ id: 'load:x:agency-1', kind: 'wallet', agency: 'agency-1', verdict: 'PASS', message: '', details: {} }]),
      resultOf(b, ['agency-2'], [{ id: 'load:x:agency-2', kind: 'wallet', agency: 'agency-2', verdict: 'FAIL', message: '', details: {} }]),
    ]);
    expect(merged.operations.all!.histogram).toBe(whole.encode());
    // Compared with the whole histogram as encoded (HDR tracks the raw max only until a histogram is serialised).
    const { mean, ...exact } = LatencyHistogram.decode(whole.encode()).summary();
    expect(merged.operations.all!.latency).toMatchObject(exact);
    expect(merged.operations.all!.latency.mean).toBeCloseTo(mean, 6);
    expect(merged.totals.requests).toBe(4000);
    expect(merged.operations.search!.count + merged.operations.book!.count).toBe(4000);
    expect(merged.totals.rateLimited).toBe(a.counts().rateLimited + b.counts().rateLimited);
    expect(merged.series.reduce((n, s) => n + s.requests, 0)).toBe(4000);
    expect(merged.agencies.sort()).toEqual(['agency-1', 'agency-2']);
    expect(merged.verdicts.map((v) => v.verdict)).toEqual(['PASS', 'FAIL']);
  });

  it('keeps the worst verdict for one id, and refuses to merge nothing', () => {
    const r = new LoadRecorder({ rateLimitedStatus: 429 });
    r.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: 1, receivedAt: 2, latencyMs: 1, status: 200 }));
    const v = (verdict: 'PASS' | 'FAIL') => [{ id: 'same', kind: 'wallet' as const, agency: 'a', verdict, message: verdict, details: {} }];
    expect(mergeLoadResults([resultOf(r, ['a'], v('FAIL')), resultOf(r, ['a'], v('PASS'))]).verdicts).toHaveLength(1);
    expect(mergeLoadResults([resultOf(r, ['a'], v('PASS')), resultOf(r, ['a'], v('FAIL'))]).verdicts[0]!.verdict).toBe('FAIL');
    expect(() => mergeLoadResults([])).toThrow(/nothing to merge/);
  });
});

describe('mergeLoadResults, expected refusals', () => {
  it('sums them apart from errors, and reads results that predate the count as 0', () => {
    const a = new LoadRecorder({ rateLimitedStatus: 429 });
    const b = new LoadRecorder({ rateLimitedStatus: 429 });
    a.record(req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_000, receivedAt: 1_000_005, latencyMs: 5, status: 502, expected: true }));
    a.record(req({ op: 'book', agency: 'agency-1', bucket: 'write', sentAt: 1_000_010, receivedAt: 1_000_015, latencyMs: 5, status: 502 }));
    b.record(req({ op: 'book', agency: 'agency-2', bucket: 'write', sentAt: 1_000_000, receivedAt: 1_000_005, latencyMs: 5, status: 502, expected: true }));
    const old = resultOf(b, ['agency-2'], []);
    delete old.operations.book!.expected;
    delete old.operations.all!.expected;
    const merged = mergeLoadResults([resultOf(a, ['agency-1'], []), old]);
    expect(merged.operations.book).toMatchObject({ count: 3, errors: 1, expected: 1 });
    expect(merged.totals).toMatchObject({ requests: 3, errors: 1, expected: 1 });
  });
});

describe('mergeLoadResults: cut-off requests and the target', () => {
  it('adds the requests cut off at the stop, and names the one target the shards ran against', () => {
    const parts = [1, 2].map((i) => {
      const rec = new LoadRecorder({ rateLimitedStatus: 429 });
      rec.record(req({ op: 'search', agency: `agency-${i}`, bucket: 'read', sentAt: 1_000_000, receivedAt: 1_000_005, latencyMs: 5, status: 200 }));
      rec.recordCutOff(req({ op: 'search', agency: `agency-${i}`, bucket: 'read', sentAt: 1_000_010, receivedAt: 1_002_000 }));
      return { ...resultOf(rec, [`agency-${i}`], []), target: { name: 'staging', baseUrl: 'https://staging.example/v1' } };
    });
    const merged = mergeLoadResults(parts);
    expect(merged.totals).toMatchObject({ requests: 2, errors: 0, cutOff: 2 });
    expect(merged.operations.search!.cutOff).toBe(2);
    expect(merged.target).toEqual({ name: 'staging', baseUrl: 'https://staging.example/v1' });
    // Results of an older version name no target: the merge claims none.
    expect(mergeLoadResults(parts.map((p) => ({ ...p, target: undefined }))).target).toBeUndefined();
  });
});
