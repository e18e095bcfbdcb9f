import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { LatencyHistogram } from '../../src/load/measure/latency-histogram.js';
import { diffCases, type ComparableCase } from '../../src/report/compare/case-diff.js';
import { compareRuns } from '../../src/report/compare/compare-runs.js';
import { diffLoads } from '../../src/report/compare/load-diff.js';
import { DEFAULT_REGRESSION_LIMITS, parseRegressionLimits } from '../../src/load/gate/regression-limits.js';
import { renderCompareHtml } from '../../src/report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../src/report/compare/render-compare-markdown.js';
import type { LoadResult, OperationFigures } from '../../src/results/load-result.js';
import type { SelftestResult } from '../../src/results/selftest-result.js';
import { formatMetricValue, notableMetrics } from '../../src/report/compare/format-delta.js';
import { manyOperationsLoadRun } from '../hostile/_reports.js';
import { HOSTILE, sampleLoadRun, sampleRun } from './fixtures/sample-run.js';

const kase = (id: string, verdict: string, message = `${id} ${verdict}`): ComparableCase => ({
  id,
  title: `title of ${id}`,
  area: 'ratelimit',
  verdict,
  message,
});

describe('diffCases', () => {
  it('sorts every case into what changed, keeping both messages, worst first', () => {
    const base = [
      kase('A', 'PASS'),
      kase('B', 'FAIL'),
      kase('C', 'FAIL'),
      kase('D', 'PASS'),
      kase('E', 'PASS'),
      kase('GONE', 'PASS'),
      kase('K', 'FAIL'),
      kase('S', 'PASS'),
    ];
    const now = [
      kase('A', 'FAIL'),
      kase('B', 'PASS'),
      kase('C', 'ERROR'),
      kase('D', 'SKIP'),
      kase('E', 'PASS'),
      kase('NEW', 'PASS'),
      kase('NEWF', 'FAIL'),
      kase('K', 'KNOWN'),
      kase('S', 'WARN'),
    ];
    const { deltas, unchanged } = diffCases(base, now);
    expect(Object.fromEntries(deltas.map((d) => [d.id, d.change]))).toEqual({
      A: 'newly-failing',
      NEWF: 'newly-failing',
      B: 'fixed',
      C: 'still-failing',
      D: 'newly-skipped',
      GONE: 'removed',
      NEW: 'added',
      // A verdict this version does not know is carried as it is, never failing.
      K: 'changed',
      S: 'changed',
    });
    expect(deltas.map((d) => d.change).slice(0, 3)).toEqual(['newly-failing', 'newly-failing', 'still-failing']);
    expect(unchanged).toBe(1);
    const a = deltas.find((d) => d.id === 'A')!;
    expect(a.base).toEqual({ verdict: 'PASS', message: 'A PASS' });
    expect(a.new).toEqual({ verdict: 'FAIL', message: 'A FAIL' });
    expect(deltas.find((d) => d.id === 'K')!.new?.verdict).toBe('KNOWN');
  });
});

/** A load whose `search` latencies are `values` (ms), with exact histograms as a real run stores them. */
function loadOf(values: readonly number[], durationS = 10): LoadResult {
  const h = new LatencyHistogram();
  for (const v of values) h.recordMs(v);
  const op: OperationFigures = {
    count: values.length,
    ok: values.length,
    rateLimited: 0,
    errors: 0,
    statuses: { '200': values.length },
    latency: h.summary(),
    histogram: h.encode(),
    latencyByOutcome: {
      '2xx': { latency: h.summary(), histogram: h.encode() },
      '429': { latency: new LatencyHistogram().summary(), histogram: '' },
      other: { latency: new LatencyHistogram().summary(), histogram: '' },
    },
  };
  const load = sampleLoadRun().load;
  return { ...load, durationS, operations: { all: op, search: op }, rps: values.length / durationS };
}

/** n latencies spread evenly over [from, to) ms, shuffled deterministically. */
function spread(n: number, from: number, to: number): number[] {
  return Array.from({ length: n }, (_, i) => from + ((i * 7919) % n) * ((to - from) / n));
}

describe('diffLoads: a regression is past the limit and outside the noise of both histograms', () => {
  const search = (base: number[], now: number[], key: string) =>
    diffLoads(loadOf(base), loadOf(now), DEFAULT_REGRESSION_LIMITS).metrics.find((m) => m.metric === `search.${key}`)!;

  it('calls 30% slower on 2 000 samples a regression, with the change in ms', () => {
    const m = search(spread(2000, 10, 20), spread(2000, 13, 26), 'p50');
    expect(m.regression).toBe(true);
    expect(m.change).toBeGreaterThan(3);
    expect(m.change).toBeLessThan(5);
    expect(m.baseInterval!.hi).toBeLessThan(m.newInterval!.lo);
  });

  it('does not call 3% slower a regression however many samples (within the 10% limit)', () => {
    const m = search(spread(5000, 10, 20), spread(5000, 10.3, 20.6), 'p50');
    expect(m.beyondLimit).toBe(false);
    expect(m.regression).toBe(false);
  });

  it('does not call 15% slower on 30 samples a regression: the order statistics of so few values overlap', () => {
    const m = search(spread(30, 10, 20), spread(30, 11.5, 23), 'p50');
    expect(m.beyondLimit).toBe(true);
    expect(m.beyondNoise).toBe(false);
    expect(m.regression).toBe(false);
  });

  it('cannot bound p99.9 of 100 samples from above, so never calls it a regression; the max is shown, never judged', () => {
    const p999 = search(
      spread(100, 10, 20),
      spread(100, 10, 20).map((v) => v * 3),
      'p99_9',
    );
    expect(p999.baseInterval!.hi).toBe(Number.POSITIVE_INFINITY);
    expect(p999.regression).toBe(false);
    const max = search(
      spread(100, 10, 20),
      spread(100, 10, 20).map((v) => v * 3),
      'max',
    );
    expect(max.regression).toBe(false);
  });

  it('shows the throughput of every answer with Poisson noise, never judged: it is the rate the harness sent at', () => {
    const m = diffLoads(loadOf(spread(2000, 10, 20)), loadOf(spread(1000, 10, 20)), DEFAULT_REGRESSION_LIMITS).metrics.find((x) => x.metric === 'search.rps')!;
    expect(m.change).toBeCloseTo(-100, 5);
    expect(m.baseInterval!.lo).toBeGreaterThan(m.newInterval!.hi);
    expect(m.regression).toBe(false);
    expect(m.notJudged).toMatch(/offered load/);
  });
});

describe('parseRegressionLimits', () => {
  it('takes limits per kind and keeps the defaults of the others; refuses an unknown kind in one line', () => {
    expect(parseRegressionLimits(['latency=20%,rps=5%'])).toEqual({ ...DEFAULT_REGRESSION_LIMITS, latency: 0.2, rps: 0.05 });
    expect(parseRegressionLimits('15%')).toMatchObject({ latency: 0.15, rps: 0.15 });
    expect(() => parseRegressionLimits(['latnecy=5%'])).toThrow(/unknown metric kind "latnecy"/);
    expect(() => parseRegressionLimits(['latency=fast'])).toThrow(/must be a percentage/);
  });
});

describe('compareRuns', () => {
  it('refuses runs of different kinds, naming both', () => {
    let err: unknown;
    try {
      compareRuns(
        { file: 'a/report.json', result: sampleRun() },
        { file: 'b/report.json', result: sampleLoadRun() },
        { thresholds: [], limits: DEFAULT_REGRESSION_LIMITS },
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/cannot compare a suite run \(a\/report\.json\) with a load run \(b\/report\.json\)/);
  });

  it('calls a NEW run that proves nothing worse, though its cases were only skipped', () => {
    const base = sampleRun({ verdict: 'PASS' });
    const now = sampleRun({
      runId: 'other',
      verdict: 'INCONCLUSIVE',
      verdictReason: 'the baseline signed request was refused',
      cases: base.cases.map((c) => ({ ...c, verdict: 'SKIP' as const })),
    });
    const c = compareRuns({ file: 'a', result: base }, { file: 'b', result: now }, { thresholds: [], limits: DEFAULT_REGRESSION_LIMITS });
    expect(c.counts.newlyFailing).toBe(0);
    expect(c.newlyInconclusive).toBe(true);
    expect(c.regressed).toBe(true);
    expect(c.notes[0]).toBe('NEW is INCONCLUSIVE where BASE was PASS: the baseline signed request was refused');
  });

  it('keeps text from the target inert in compare.html and compare.md', () => {
    const base = sampleRun();
    const now = sampleRun({ runId: 'other', cases: base.cases.map((c) => ({ ...c, verdict: 'FAIL' as const, message: `${HOSTILE.script} ${HOSTILE.img}` })) });
    const c = compareRuns({ file: 'a', result: base }, { file: 'b', result: now }, { thresholds: [], limits: DEFAULT_REGRESSION_LIMITS });
    expect(c.regressed).toBe(true);
    const page = renderCompareHtml(c);
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src="http://evil');
    expect(renderCompareMarkdown(c)).not.toContain('<script>');
  });
});

describe('compareRuns of two self-tests', () => {
  it('compares defects caught and false alarms as cases', () => {
    const defect = (name: string, caught: boolean) => ({
      defect: name,
      description: `${name} described`,
      promise: 'p',
      expected: ['RL-04'],
      caughtBy: caught ? ['RL-04'] : [],
      unproven: [],
      collateral: [],
      caught,
      cases: 60,
      durationMs: 1000,
      seed: 1,
    });
    const selftest = (runId: string, caught: boolean, alarms: string[]): SelftestResult => ({
      schema: 'svc-harness/selftest@1',
      kind: 'selftest',
      runId,
      command: 'svc-harness selftest',
      startedAt: '2026-11-25T10:00:00Z',
      finishedAt: '2026-11-25T10:01:00Z',
      durationMs: 60_000,
      concurrency: 2,
      mode: 'focused',
      wholeCatalogue: false,
      defects: [defect('fixed-window', caught), defect('replay-differs', true)],
      clean: [
        {
          index: 1,
          falseAlarms: alarms.map((id) => ({
            id,
            kind: 'check' as const,
            verdict: 'FAIL' as const,
            message: `${id} failed on the clean mock`,
            evidence: [],
            missingEvidence: [],
          })),
          cases: 60,
          durationMs: 1000,
          seed: 1,
        },
      ],
      coverage: [],
      score: { caught: caught ? 2 : 1, total: 2 },
      falseAlarmRuns: alarms.length > 0 ? 1 : 0,
      unexplainedChecks: [],
      verdict: caught && alarms.length === 0 ? 'PASS' : 'FAIL',
    });
    const c = compareRuns(
      { file: 'a', result: selftest('a', true, ['WH-02']) },
      { file: 'b', result: selftest('b', false, []) },
      { thresholds: [], limits: DEFAULT_REGRESSION_LIMITS },
    );
    expect(c.cases.map((d) => [d.id, d.change])).toEqual([
      ['defect:fixed-window', 'newly-failing'],
      ['clean-runs', 'fixed'],
    ]);
    expect(c.cases[1]!.base?.message).toBe('WH-02: WH-02 failed on the clean mock');
    expect(c.cases[0]!.new?.message).toBe('not caught (expected RL-04)');
    expect(c.regressed).toBe(true);
  });
});

describe('compare.html of a load of many operations', () => {
  const compareLoads = (operations: number) =>
    compareRuns(
      { file: 'a', result: manyOperationsLoadRun(operations, 12, 0) },
      { file: 'b', result: manyOperationsLoadRun(operations, 12, 3) },
      { thresholds: [], limits: DEFAULT_REGRESSION_LIMITS },
    );

  it('lists the metrics past their limit one row each, and every metric by value, one row per operation and outcome', () => {
    const c = compareLoads(60);
    const metrics = c.load!.metrics;
    // `all` (every answer only) and 60 operations, each over every answer and its three outcomes.
    expect(metrics).toHaveLength(9 + 60 * 30);
    const page = renderCompareHtml(c);
    const grid = page.slice(page.indexOf('<summary>Every metric by value'));
    expect(grid).toMatch(/^<summary>Every metric by value, by operation and outcome \(1809 metrics of 61 operations\)/);
    const rows = new Map(
      [...grid.matchAll(/<tr><td>([^<]+)<\/td><td class="left">([^<]+)<\/td>(.*?)<\/tr>/g)].map((m) => [`${m[1]} ${m[2]}`, m[3]!.replace(/&gt;/g, '>')]),
    );
    expect(rows.size).toBe(1 + 60 * 4);
    for (const m of metrics) {
      const row = rows.get(`${m.op === 'all' ? 'every operation' : m.op} ${m.outcome === 'any' ? 'every answer' : m.outcome}`);
      const [b, n] = [formatMetricValue(m, m.base), formatMetricValue(m, m.new)];
      expect(row, m.metric).toContain(b === n ? `<td>${n}</td>` : `${b} → ${n}</td>`);
    }
    // Past their limit (here: the percentiles of too few samples, 3 ms slower): one row each, with intervals and judgement.
    const notable = notableMetrics(metrics);
    const listed = [...notable.regressions, ...notable.improvements, ...notable.withinNoise, ...notable.notJudged];
    expect(notable.notJudged.length).toBeGreaterThan(200);
    for (const m of listed) expect(page).toContain(`<code>${m.metric}</code>`);
    // The others by value only, counted, and where to read them in full.
    expect(page).not.toContain('<code>op-0001.max</code>');
    expect(page).toContain(`the other ${metrics.length - listed.length} (within their limit`);
    expect(page).toContain('<code>svc-harness report compare BASE NEW --json</code> gives every metric with its intervals and judgement');
    // Spectra: 24 drawn, `all` first, and the page says so.
    expect(c.load!.spectra).toHaveLength(24);
    expect(c.load!.spectra[0]!.op).toBe('all');
    expect(c.load!.spectrumOps).toBe(61);
    expect(page).toContain('Latency spectra of 24 of the 61 operations are drawn');
    expect(page.match(/<figcaption>[^<]*: latency by percentile, BASE vs NEW/g)).toHaveLength(24);
  });

  it('lists every metric one row each when they are few', () => {
    const c = compareLoads(8);
    const page = renderCompareHtml(c);
    expect(page).toContain(`Every metric, by operation and outcome (${c.load!.metrics.length})`);
    for (const m of c.load!.metrics) expect(page).toContain(`<code>${m.metric}</code>`);
    expect(page).not.toContain('Every metric by value');
    expect(c.load!.spectra.map((s) => s.op)).toEqual(['all', ...Array.from({ length: 8 }, (_, i) => `op-000${i + 1}`)]);
  });
});
