import { describe, expect, it } from 'vitest';
import { evaluateLoadGates } from '../../src/load/gate/load-metrics.js';
import { quantileDesignEffect } from '../../src/load/gate/metric-noise.js';
import { DEFAULT_REGRESSION_LIMITS, parseRegressionLimits } from '../../src/load/gate/regression-limits.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import type { LoadResult } from '../../src/results/load-result.js';
import { diffLoads } from '../../src/report/compare/load-diff.js';
import { loadResultOf } from './_load-result.js';
import { req } from './_request.js';

/** What one run sent: searches answered 200 or 429, each with a latency, and the harness's own wallet reads before the load. */
interface Run {
  ok: number;
  limited: number;
  /** Latency of the i-th answer, ms. */
  ms: (i: number) => number;
  setupMs?: number;
}

/** A deterministic spread of latencies around `median` (±20%), so that percentiles have a width. */
const around =
  (median: number) =>
  (i: number): number =>
    median * (0.8 + (0.4 * ((i * 7919) % 1000)) / 1000);

function run(r: Run): LoadResult {
  const rec = new LoadRecorder({ rateLimitedStatus: 429 });
  const setupMs = r.setupMs ?? 20;
  for (let i = 0; i < 5; i++)
    for (const op of ['setup.balance', 'setup.statement'])
      rec.record(req({ op, agency: `agency-${i}`, bucket: 'read', sentAt: 1000, receivedAt: 1000 + setupMs, latencyMs: setupMs, status: 200 }));
  const n = r.ok + r.limited;
  for (let i = 0; i < n; i++) {
    const at = 1_000_000 + Math.floor((i * 10_000) / n);
    const status = i % n < r.ok ? 200 : 429;
    rec.record(req({ op: 'search', agency: 'agency-1', bucket: 'read', sentAt: at, receivedAt: at + 5, latencyMs: status === 429 ? 2 : r.ms(i), status }));
  }
  return loadResultOf(rec);
}

/** Both commands, on one pair of runs: `report compare`'s regressions, and `load --baseline`'s broken gates. */
function judged(base: LoadResult, now: LoadResult, limits = DEFAULT_REGRESSION_LIMITS): { regressions: string[]; broken: string[]; gates: string[] } {
  const regressions = diffLoads(base, now, limits)
    .metrics.filter((m) => m.regression)
    .map((m) => m.metric);
  // maxRegression: the option as older versions took it (one fraction); limits: as both commands take it now.
  const gates = evaluateLoadGates(now, [], { result: base, limits, maxRegression: 0.1 } as never);
  return {
    regressions,
    broken: gates.filter((g) => !g.passed).map((g) => g.source.replace(/^baseline /, '')),
    gates: gates.map((g) => g.source.replace(/^baseline /, '')),
  };
}

describe('one regression rule for report compare and load --baseline', () => {
  it('a run that sent 19% more past the limit, and was faster, is no regression: 429s follow what the harness sent', () => {
    const base = run({ ok: 1000, limited: 10_000, ms: around(10) });
    const now = run({ ok: 1000, limited: 12_000, ms: around(8) });
    expect(judged(base, now)).toMatchObject({ regressions: [], broken: [] });
    const rps = diffLoads(base, now, DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === 'search.429.rps')!;
    expect(rps.notJudged).toMatch(/offered load/);
  });

  it("never judges the harness's own setup reads, nor a percentile with too few samples above it", () => {
    // The setup reads took 50% longer (5 samples each); p99 of 400 answers moved 13%.
    const base = run({ ok: 400, limited: 0, ms: (i) => (i % 100 === 99 ? 100 : 10) });
    const now = run({ ok: 400, limited: 0, ms: (i) => (i % 100 === 99 ? 113 : 10), setupMs: 30 });
    const r = judged(base, now);
    expect(r).toMatchObject({ regressions: [], broken: [] });
    expect(r.gates.filter((g) => g.startsWith('setup.'))).toEqual([]);
    const p99 = diffLoads(base, now, DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === 'search.p99')!;
    expect(p99.notJudged).toMatch(/too few samples: 400 answer\(s\), p99 needs 1000/);
  });

  it('a service 30% slower is a regression for both commands', () => {
    const base = run({ ok: 1200, limited: 0, ms: around(10) });
    const now = run({ ok: 1200, limited: 0, ms: around(13) });
    const r = judged(base, now);
    expect(r.regressions).toEqual(expect.arrayContaining(['latency.p50', 'search.p50', 'search.p99']));
    expect(r.broken).toEqual(expect.arrayContaining(['latency.p50', 'search.p50', 'search.p99']));
    expect(r.broken.sort()).toEqual([...r.regressions].sort());
  });

  it('judges the 429 share only where the two runs offered comparable rates and the base run stayed under the limit', () => {
    const under = run({ ok: 4000, limited: 0, ms: around(10) });
    // The same offer, now refused a third of the time: the service began refusing what it admitted.
    const refusing = run({ ok: 2600, limited: 1400, ms: around(10) });
    expect(judged(under, refusing).regressions).toContain('search.429.rate');
    expect(judged(under, refusing).broken).toContain('search.429.rate');
    // Past the limit in both: what is admitted is the limit less what the window held when each load began (back-to-back loads alternate).
    const base = run({ ok: 2000, limited: 2000, ms: around(10) });
    const fullWindow = run({ ok: 100, limited: 3900, ms: around(10) });
    const past = diffLoads(base, fullWindow, DEFAULT_REGRESSION_LIMITS).metrics.filter((m) => m.metric === 'search.429.rate' || m.metric === 'search.2xx.rps');
    expect(past).toHaveLength(2);
    for (const m of past) {
      expect(m).toMatchObject({ regression: false });
      expect(m.notJudged).toMatch(/^past the limit in the base run: what is admitted follows the limit and what the window held when each load began/);
    }
    // 30% more offered: a larger share refused is the limit at work.
    const more = run({ ok: 2000, limited: 3200, ms: around(10) });
    const share = diffLoads(base, more, DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === 'search.429.rate')!;
    expect(share).toMatchObject({ regression: false });
    expect(share.notJudged).toMatch(/offered different rates/);
  });

  it("judges an outcome's percentiles only where it made a comparable share of both runs; every answer's percentiles always", () => {
    // A load that began with a full window admits its 2xx one by one among 429s: a fifth of the run, then 1.4% (slower, but other answers).
    const base = run({ ok: 2000, limited: 8000, ms: around(10) });
    const full = run({ ok: 140, limited: 9860, ms: around(14) });
    const p90 = diffLoads(base, full, DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === 'search.2xx.p90')!;
    expect(p90).toMatchObject({ regression: false });
    expect(p90.notJudged).toBe(
      "2xx answers made 20% of one run and 1.4% of the other: they came under other conditions (the window's state when each load began); every answer's percentiles are judged",
    );
    // Shares alike (four fifths 2xx in both), 40% slower: a regression of the 2xx answers.
    const under = run({ ok: 4000, limited: 1000, ms: around(10) });
    const slower = run({ ok: 4000, limited: 1000, ms: around(14) });
    expect(judged(under, slower).regressions).toContain('search.2xx.p90');
  });

  it('--max-regression reads alike for both commands', () => {
    expect(parseRegressionLimits(['10%'])).toEqual({ ...DEFAULT_REGRESSION_LIMITS, latency: 0.1, rps: 0.1 });
    const base = run({ ok: 1200, limited: 0, ms: around(10) });
    const now = run({ ok: 1200, limited: 0, ms: around(13) });
    expect(judged(base, now, parseRegressionLimits(['latency=50%'])).broken).toEqual([]);
  });

  /**
   * Two loads of one unchanged service on a busy machine: every second
   * answers around 20 ms, except the seconds a stall of the machine slows
   * whole, which fall at other times and last other lengths in each run
   * (one second at ~40 ms in BASE, two at ~50 ms in NEW). Answers taken as
   * independent, NEW's p90 to p99 sit 30 to 100% above BASE's with narrow
   * intervals that do not touch; the stalls are two or three events, not
   * thousands of samples, and no gate may break on them.
   */
  function stalled(stalls: Record<number, number>, base = 20): LoadResult {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    for (let sec = 0; sec < 20; sec++)
      for (let j = 0; j < 500; j++) {
        const at = 1_000_000 + sec * 1000 + j * 2;
        rec.record(
          req({
            op: 'search',
            agency: 'agency-1',
            bucket: 'read',
            sentAt: at,
            receivedAt: at + 1,
            latencyMs: around(stalls[sec] ?? base)(sec * 500 + j),
            status: 200,
          }),
        );
      }
    return loadResultOf(rec, { durationS: 20, finishedAt: 1_020_000 });
  }

  it('stalls of the machine that slow whole seconds are noise, not a regression: each second is one cluster of samples', () => {
    const base = stalled({ 4: 40 });
    const now = stalled({ 9: 50, 15: 50 });
    const p99 = diffLoads(base, now, DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === 'search.p99')!;
    expect(p99.relative).toBeGreaterThan(0.2);
    expect(p99.notJudged).toBeUndefined();
    expect(judged(base, now)).toMatchObject({ regressions: [], broken: [] });
  });

  it('a service 30% slower in every second is still a regression with the same stalls', () => {
    const r = judged(stalled({ 4: 40 }), stalled({ 4: 52 }, 26));
    expect(r.regressions).toEqual(expect.arrayContaining(['latency.p50', 'search.p50']));
    expect(r.broken).toEqual(expect.arrayContaining(['latency.p50', 'search.p50']));
  });

  /**
   * A load past its limit: every answer is a fast 429 (about 2 ms) or a 2xx
   * around `ms`, each drawn on its own, no stall, but the share of 429s
   * swings from second to second as the windows fill and drain (400 of 500
   * in one second, 100 in the next).
   */
  function swinging(ms: number): LoadResult {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    for (let sec = 0; sec < 20; sec++)
      for (let j = 0; j < 500; j++) {
        const at = 1_000_000 + sec * 1000 + j * 2;
        const limited = j < (sec % 2 === 0 ? 400 : 100);
        const latencyMs = limited ? around(2)(sec * 500 + j) : around(ms)(sec * 500 + j);
        rec.record(req({ op: 'search', agency: 'agency-1', bucket: 'read', sentAt: at, receivedAt: at + 1, latencyMs, status: limited ? 429 : 200 }));
      }
    return loadResultOf(rec, { durationS: 20, finishedAt: 1_020_000 });
  }

  it("a swinging mix of fast 429s and slower 2xx is no clustering of slow answers: the 2xx's intervals stay as narrow as independent answers'", () => {
    const load = swinging(20);
    const twoXx = load.operations.all!.latencyByOutcome!['2xx'].latency.count;
    // Each second answers a share of 2xx that swings between 20% and 80%: measured on every answer, the seconds look like stalls.
    for (const q of [0.5, 0.9, 0.99]) expect(quantileDesignEffect(load, q, 'all', '2xx', twoXx)).toBeLessThan(1.5);
    // A stall is still one: the seconds slower than their mix widen the interval.
    const stalledLoad = stalled({ 4: 40, 11: 45 });
    expect(quantileDesignEffect(stalledLoad, 0.9, 'all', 'any', stalledLoad.operations.all!.latency.count)).toBeGreaterThan(5);
  });

  it('a service whose 2xx answer 30% slower under the same swinging mix is a regression of the 2xx percentiles', () => {
    const r = judged(swinging(20), swinging(26));
    expect(r.regressions).toEqual(expect.arrayContaining(['search.2xx.p50', 'search.2xx.p90']));
    expect(r.broken).toEqual(expect.arrayContaining(['search.2xx.p50']));
    expect(judged(swinging(20), swinging(20))).toMatchObject({ regressions: [], broken: [] });
  });

  /**
   * A closed-loop load of a service answering in about `ms`: its 16
   * connections answer in waves, one a second, and a busy machine slows a
   * whole wave at once (each wave 0 to 6% late, in the wave's order), so
   * each second is about one independent sample.
   */
  function waves(seconds: number, ms: number): LoadResult {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    for (let sec = 0; sec < seconds; sec++)
      for (let j = 0; j < 16; j++) {
        const at = 1_000_000 + sec * 1000 + j;
        const latencyMs = ms * (1 + 0.02 * ((sec * 5) % 4)) + j * 0.1;
        rec.record(req({ op: 'search', agency: 'agency-1', bucket: 'read', sentAt: at, receivedAt: at + 1, latencyMs, status: 200 }));
      }
    return loadResultOf(rec, { durationS: seconds, finishedAt: 1_000_000 + seconds * 1000 });
  }

  it('a load of 3 waves cannot bound its median, and the gate says so; 12 waves judge a service 30% slower', () => {
    const short = evaluateLoadGates(waves(3, 1300), [], { result: waves(3, 1000), limits: DEFAULT_REGRESSION_LIMITS });
    const p50 = short.find((g) => g.source === 'baseline search.p50')!;
    expect(p50.passed).toBe(true);
    expect(p50.message).toMatch(/95% intervals ≥ [\d ,.]+ ms vs .*: within the noise: too few independent seconds to bound it from above/);
    expect(judged(waves(12, 1000), waves(12, 1300)).broken).toEqual(expect.arrayContaining(['search.p50']));
    expect(judged(waves(12, 1000), waves(12, 1000)).broken).toEqual([]);
  });
});
