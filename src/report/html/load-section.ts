import { html } from '../escape.js';
import {
  LATENCY_OUTCOMES,
  type GateResult,
  type LatencyOutcome,
  type LatencySummary,
  type LoadResult,
  type OperationFigures,
  type SecondFigures,
  type Spectrum,
} from '../../results/load-result.js';
import { gateBreakdown } from '../../results/error-breakdown.js';
import { gateFigures, withUnit } from '../../results/gate-units.js';
import { formatDecimal, formatMoney } from '../../results/units.js';
import { formatMoneyChange, walletFigures, type WalletFigures } from '../../results/wallet-figures.js';
import { verdictBadge } from './palette.js';
import { axisTimeLabel, formatOffset, linear, maxOf, n, niceTicks, timeTicks } from './svg.js';
import { splitGateMetric } from '../../load/gate/gate-metrics.js';

const W = 720;
const H = 220;
const M = { l: 64, r: 16, t: 14, b: 40 };
const COLOURS = { ok: '#1a7f37', rl: '#cf222e', err: '#b35900', p50: '#0969da', p99: '#8250df', max: '#6e7781' };

// A merged report.json may hold NaN or null where a shard had nothing to measure; a chart draws those as 0.
function num(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function fmt(v: number, digits = 2): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

function frame(
  title: string,
  body: string,
  yTicks: number[],
  y: (v: number) => number,
  yLabel: (v: number) => string,
  xTicks: Array<[number, string]>,
  yTitle: string,
  xTitle: string,
): string {
  const grid = yTicks
    .map(
      (t) =>
        `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#d0d7de" stroke-width="0.5"/><text x="${M.l - 6}" y="${n(y(t) + 4)}" text-anchor="end" font-size="10">${html(yLabel(t))}</text>`,
    )
    .join('');
  const xs = xTicks.map(([x, label]) => `<text x="${n(x)}" y="${H - M.b + 14}" text-anchor="middle" font-size="10">${html(label)}</text>`).join('');
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${html(title)}" xmlns="http://www.w3.org/2000/svg">${grid}${xs}${body}<text transform="translate(12 ${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle" font-size="10">${html(yTitle)}</text><text x="${(M.l + W - M.r) / 2}" y="${H - 4}" text-anchor="middle" font-size="10">${html(xTitle)}</text><line x1="${M.l}" x2="${M.l}" y1="${M.t}" y2="${H - M.b}" stroke="#57606a"/><line x1="${M.l}" x2="${W - M.r}" y1="${H - M.b}" y2="${H - M.b}" stroke="#57606a"/></svg><figcaption>${html(title)}</figcaption></figure>`;
}

function legend(items: Array<[string, string]>): string {
  return `<p class="legend">${items.map(([c, label]) => `<span style="display:inline-block;width:10px;height:10px;background:${html(c)};margin:0 4px 0 12px"></span>${html(label)}`).join('')}</p>`;
}

function throughputChart(series: SecondFigures[]): string {
  const t0 = series[0]!.second;
  const span = series[series.length - 1]!.second - t0 + 1;
  const maxReq = maxOf(
    1,
    series.map((s) => num(s.requests)),
  );
  const x = linear(0, span, M.l, W - M.r);
  const y = linear(0, maxReq, H - M.b, M.t);
  const bw = Math.max(1, (W - M.l - M.r) / span - 1);
  const bars = series
    .map((s) => {
      const x0 = x(s.second - t0);
      let base = 0;
      return (
        [
          [num(s.ok), COLOURS.ok, 'ok'],
          [num(s.errors), COLOURS.err, 'errors'],
          [num(s.rateLimited), COLOURS.rl, '429'],
        ] as Array<[number, string, string]>
      )
        .map(([v, c, label]) => {
          if (v <= 0) return '';
          const top = y(base + v);
          const h = y(base) - top;
          base += v;
          return `<rect x="${n(x0)}" y="${n(top)}" width="${n(bw)}" height="${n(h)}" fill="${c}"><title>${html(`${formatOffset(s.second - t0)}: ${v} ${label}`)}</title></rect>`;
        })
        .join('');
    })
    .join('');
  const xt = timeTicks(span).map((t) => [x(t), axisTimeLabel(span)(t)] as [number, string]);
  return (
    frame(
      'Throughput per second (429s in red)',
      bars,
      niceTicks(0, maxReq, 5),
      y,
      (v) => fmt(v, 0),
      xt,
      'responses per second',
      'time since the load started',
    ) +
    legend([
      [COLOURS.ok, '2xx'],
      [COLOURS.err, 'errors'],
      [COLOURS.rl, '429'],
    ])
  );
}

/** A latency gate drawn as a line: its metric and bound in ms, and the series it measures. */
interface Threshold {
  label: string;
  ms: number;
  passed: boolean;
  series: GatedSeries;
}

/** The latencies a gate measures: one operation (`latency` is every operation together), of one outcome or of every answer. */
interface GatedSeries {
  op: string;
  outcome?: LatencyOutcome | undefined;
}

/** The operation key of every response, in gate metrics and in `load.operations`. */
const EVERY_OPERATION = new Set(['latency', 'all']);

function isEveryResponse(s: GatedSeries): boolean {
  return EVERY_OPERATION.has(s.op) && s.outcome === undefined;
}

/** The gates on a latency (`search.p95<200ms`, `latency.max<1s`), each with the series it measures. */
function latencyThresholds(gates: readonly GateResult[]): Threshold[] {
  return gates.flatMap((g) => {
    const f = gateFigures(g);
    const m = splitGateMetric(f.metric);
    if (f.kind !== 'latency' || f.bound === undefined || m === undefined || m.scope !== 'operation') return [];
    return [{ label: `${f.metric} ${f.limit}`, ms: f.bound, passed: g.passed, series: { op: m.op, outcome: m.outcome } }];
  });
}

/** The latency summary of a gated series, when the load measured it. */
function seriesLatency(ops: Record<string, OperationFigures>, s: GatedSeries): LatencySummary | undefined {
  const op = EVERY_OPERATION.has(s.op) ? (ops.all ?? ops.latency) : ops[s.op];
  if (op === undefined) return undefined;
  if (s.outcome === undefined) return num(op.latency.count) > 0 ? op.latency : undefined;
  const l = op.latencyByOutcome?.[s.outcome]?.latency;
  return l !== undefined && num(l.count) > 0 ? l : undefined;
}

function seriesName(s: GatedSeries): string {
  const op = EVERY_OPERATION.has(s.op) ? 'every operation' : s.op;
  return s.outcome === undefined ? op : `${op}, ${OUTCOME_STYLE[s.outcome].label} answers`;
}

/**
 * One percentile chart per series a gate measures other than every
 * response (`search.p95` measures the searches alone): its gates are drawn
 * over that series, never over every response, where a held gate would
 * look breached (or the reverse).
 */
function gatedSeriesCharts(ops: Record<string, OperationFigures>, thresholds: readonly Threshold[]): string[] {
  const keys = [...new Set(thresholds.filter((t) => !isEveryResponse(t.series)).map((t) => JSON.stringify([t.series.op, t.series.outcome ?? null])))];
  return keys.flatMap((key) => {
    const [op, outcome] = JSON.parse(key) as [string, LatencyOutcome | null];
    const series: GatedSeries = { op, outcome: outcome ?? undefined };
    const latency = seriesLatency(ops, series);
    if (latency === undefined) return [];
    const gates = thresholds.filter((t) => t.series.op === op && (t.series.outcome ?? null) === outcome);
    return [
      spectrumChart(summarySpectrum(latency), gates, [], `Latency by percentile of ${seriesName(series)} (the series its gate measures)`, seriesName(series)),
    ];
  });
}

function thresholdLines(thresholds: readonly Threshold[], y: (v: number) => number): string {
  // Labels of gates at (nearly) the same bound are stacked upwards rather than drawn over each other.
  let lastLabelY = Number.POSITIVE_INFINITY;
  return [...thresholds]
    .sort((a, b) => a.ms - b.ms)
    .map((t) => {
      const lineY = y(t.ms);
      const labelY = Math.min(lineY - 4, lastLabelY - 12);
      lastLabelY = labelY;
      return `<line x1="${M.l}" x2="${W - M.r}" y1="${n(lineY)}" y2="${n(lineY)}" stroke="${t.passed ? COLOURS.ok : COLOURS.rl}" stroke-width="1.2" stroke-dasharray="6 4"/><text x="${W - M.r - 4}" y="${n(labelY)}" text-anchor="end" font-size="10" style="fill:${t.passed ? COLOURS.ok : COLOURS.rl}">${html(`gate ${t.label}`)}</text>`;
    })
    .join('');
}

function latencyChart(series: SecondFigures[], thresholds: readonly Threshold[]): string {
  const t0 = series[0]!.second;
  const span = series[series.length - 1]!.second - t0 + 1;
  const maxMs = maxOf(
    0.001,
    series.map((s) => num(s.max)),
    thresholds.map((t) => t.ms * 1.1),
  );
  const x = linear(0, span, M.l, W - M.r);
  const y = linear(0, maxMs, H - M.b, M.t);
  const line = (key: 'p50' | 'p99' | 'max', colour: string): string =>
    `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${series
      .filter((s) => s.requests > 0)
      .map((s) => `${n(x(s.second - t0 + 0.5))},${n(y(num(s[key])))}`)
      .join(' ')}"/>`;
  const xt = timeTicks(span).map((t) => [x(t), axisTimeLabel(span)(t)] as [number, string]);
  return (
    frame(
      'Latency over time (every response, per second)',
      line('max', COLOURS.max) + line('p99', COLOURS.p99) + line('p50', COLOURS.p50) + thresholdLines(thresholds, y),
      niceTicks(0, maxMs, 5),
      y,
      (v) => fmt(v),
      xt,
      'response latency (ms)',
      'time since the load started',
    ) +
    legend([
      [COLOURS.p50, 'p50'],
      [COLOURS.p99, 'p99'],
      [COLOURS.max, 'max'],
      ...thresholds.map((t): [string, string] => [t.passed ? COLOURS.ok : COLOURS.rl, `gate ${t.label}`]),
    ])
  );
}

/** Colour and name of each outcome, in charts and tables. */
const OUTCOME_STYLE: Record<LatencyOutcome, { colour: string; label: string }> = {
  '2xx': { colour: COLOURS.ok, label: '2xx' },
  '429': { colour: COLOURS.rl, label: '429' },
  other: { colour: COLOURS.err, label: 'other status' },
};

/** The outcomes of an operation that had answers, in LATENCY_OUTCOMES order; empty for results that predate the split. */
function outcomesOf(op: OperationFigures | undefined): Array<[LatencyOutcome, LatencySummary]> {
  const split = op?.latencyByOutcome;
  return split ? LATENCY_OUTCOMES.filter((o) => num(split[o]?.latency.count) > 0).map((o): [LatencyOutcome, LatencySummary] => [o, split[o].latency]) : [];
}

/** The percentiles of a summary as spectrum points (the max at 100). */
function summarySpectrum(l: LatencySummary): Spectrum {
  return [
    { percentile: 50, ms: l.p50 },
    { percentile: 90, ms: l.p90 },
    { percentile: 95, ms: l.p95 },
    { percentile: 99, ms: l.p99 },
    { percentile: 99.9, ms: l.p99_9 },
    { percentile: 100, ms: l.max },
  ];
}

function spectrumChart(
  spectrum: Spectrum,
  thresholds: readonly Threshold[],
  outcomes: ReadonlyArray<[LatencyOutcome, LatencySummary]>,
  ownTitle?: string,
  seriesLabel = 'every response',
): string {
  // x is log10(1 / (1 − p)): 50% at 0.3, 90% at 1, 99% at 2, 99.9% at 3 … (100% drawn one decade past the last point).
  const k = (p: number): number => (p >= 100 ? NaN : Math.log10(1 / (1 - p / 100)));
  const lines: Array<{ colour: string; label: string; points: Spectrum }> = [{ colour: COLOURS.p99, label: seriesLabel, points: spectrum }];
  // With one outcome only, its line would hide under the line of every response. Solid lines: dashed ones are gates.
  if (outcomes.length > 1)
    for (const [o, l] of outcomes) lines.push({ colour: OUTCOME_STYLE[o].colour, label: OUTCOME_STYLE[o].label, points: summarySpectrum(l) });
  const finite = lines.flatMap((l) => l.points.map((p) => k(p.percentile)).filter(Number.isFinite));
  const kMax = maxOf(1, finite) + 0.5;
  const kOf = (p: number): number => (Number.isFinite(k(p)) ? k(p) : kMax);
  const maxMs = maxOf(
    0.001,
    lines.flatMap((l) => l.points.map((p) => num(p.ms))),
    thresholds.map((t) => t.ms * 1.1),
  );
  const x = linear(0, kMax, M.l, W - M.r);
  const y = linear(0, maxMs, H - M.b, M.t);
  const body = lines
    .map((l) => {
      const poly = `<polyline fill="none" stroke="${l.colour}" stroke-width="1.5" points="${l.points.map((p) => `${n(x(kOf(p.percentile)))},${n(y(num(p.ms)))}`).join(' ')}"/>`;
      const dots = l.points
        .map(
          (p) =>
            `<circle cx="${n(x(kOf(p.percentile)))}" cy="${n(y(num(p.ms)))}" r="2.5" fill="${l.colour}"><title>${html(`${l.label} p${fmt(p.percentile, 3)}: ${fmt(num(p.ms), 3)} ms`)}</title></circle>`,
        )
        .join('');
      return poly + dots;
    })
    .join('');
  const xt: Array<[number, string]> = [
    [x(Math.log10(2)), '50%'],
    [x(1), '90%'],
    [x(2), '99%'],
    [x(3), '99.9%'],
    [x(4), '99.99%'],
  ].filter(([v]) => (v as number) <= W - M.r) as Array<[number, string]>;
  xt.push([x(kMax), 'max']);
  const title =
    ownTitle !== undefined
      ? ownTitle
      : lines.length > 1
        ? 'Latency by percentile, every response and each outcome (HDR histograms)'
        : 'Latency by percentile (HDR histogram of every response)';
  return (
    frame(
      title,
      body + thresholdLines(thresholds, y),
      niceTicks(0, maxMs, 5),
      y,
      (v) => fmt(v),
      xt,
      'response latency (ms)',
      'percentile of responses (log scale)',
    ) +
    (lines.length > 1
      ? legend([
          ...lines.map((l): [string, string] => [l.colour, l.label]),
          ...thresholds.map((t): [string, string] => [t.passed ? COLOURS.ok : COLOURS.rl, `gate ${t.label}`]),
        ])
      : '')
  );
}

/**
 * Latency of each outcome apart, every operation first: a run pushed past its
 * limits is mostly fast 429s, and the 2xx latency must read on its own.
 */
function outcomeTable(ops: Record<string, OperationFigures>): string {
  const names = ['all', ...Object.keys(ops).filter((k) => k !== 'all')];
  const rows = names.flatMap((name) =>
    outcomesOf(ops[name]).map(([o, l], i, list) => {
      const head = i === 0 ? `<th scope="rowgroup" rowspan="${list.length}">${html(name === 'all' ? 'every operation' : name)}</th>` : '';
      const swatch = `<span class="swatch" style="background:${OUTCOME_STYLE[o].colour}"></span>`;
      const cells = [num(l.count), ...OPS_PERCENTILES.map((k) => fmt(num(l[k]), 2))].map((c) => `<td>${html(String(c))}</td>`).join('');
      return `<tr class="outcome-${html(o)}">${head}<td class="outcome">${swatch}${html(OUTCOME_STYLE[o].label)}</td>${cells}</tr>`;
    }),
  );
  if (rows.length === 0) return '';
  return `<table class="load-outcomes"><caption>Latency by outcome, in ms: 2xx answers apart from 429s and other statuses</caption><thead><tr><th>operation</th><th>outcome</th><th>answers</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The gates as k6 shows thresholds: ✓ or ✗, the metric, the measured value and the bound, both in the metric's unit. */
function gatesTable(load: LoadResult): string {
  const rows = load.gates.map((g) => {
    const f = gateFigures(g);
    // A broken gate shows what stands behind its figure.
    const behind = g.passed ? undefined : gateBreakdown(load, g);
    return `<tr class="${g.passed ? '' : 'failing'}"><td class="gate-mark" style="color:${g.passed ? COLOURS.ok : COLOURS.rl}">${g.passed ? '✓' : '✗'}</td><td><code>${html(g.source)}</code>${behind ? `<div class="gate-behind muted">${html(behind)}</div>` : ''}</td><td>${html(f.actual)}</td><td>${html(f.limit)}</td><td>${g.passed ? 'held' : 'broken'}</td></tr>`;
  });
  return `<table class="load-gates"><thead><tr><th></th><th>gate</th><th>measured</th><th>bound</th><th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Errors and the refusals provoked on purpose, by operation, status and `error.code`: what the figures `errors` and `expected` hold. */
function errorsTable(ops: Record<string, OperationFigures>): string {
  const rows = Object.entries(ops)
    .filter(([name]) => name !== 'all')
    .flatMap(([name, o]) =>
      (
        [
          ['error', o.errorsBy],
          ['expected', o.expectedBy],
        ] as const
      ).flatMap(([kind, by]) =>
        Object.entries(by ?? {}).map(
          ([key, n]) =>
            `<tr class="${kind === 'error' ? 'failing' : ''}"><th scope="row">${html(name)}</th><td>${html(kind === 'error' ? 'error' : 'provoked on purpose')}</td><td class="left"><code>${html(key === 'none' ? 'no answer' : key)}</code></td><td>${html(formatDecimal(n, 0))}</td></tr>`,
        ),
      ),
    );
  if (rows.length === 0) return '';
  return `<table class="load-errors"><caption>Errors and refusals provoked on purpose, by status and error.code</caption><thead><tr><th>operation</th><th>counted as</th><th>status and code</th><th>answers</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const OPS_PERCENTILES = ['p50', 'p90', 'p99', 'p99_9', 'max'] as const satisfies ReadonlyArray<keyof LatencySummary>;

function opsTable(ops: Record<string, OperationFigures>): string {
  const rows = Object.entries(ops)
    .map(([name, o]) => {
      const cells = [
        name,
        num(o.count),
        num(o.ok),
        num(o.rateLimited),
        num(o.errors),
        num(o.expected),
        ...OPS_PERCENTILES.map((k) => fmt(num(o.latency[k]), 2)),
      ];
      return `<tr>${cells.map((c, i) => (i === 0 ? `<th scope="row">${html(c)}</th>` : `<td>${html(String(c))}</td>`)).join('')}</tr>`;
    })
    .join('');
  return `<table class="load-ops"><thead><tr><th>operation</th><th>requests</th><th>2xx</th><th>429</th><th>errors</th><th title="refusals the load provoked on purpose">expected</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Every wallet's money in its currency: opening, debits, refunds, closing and the change, with its verdict. */
function walletTable(load: LoadResult): string {
  // Wallets that did not reconcile first (a stable sort keeps the agencies' order otherwise).
  const wallets = load.verdicts
    .map(walletFigures)
    .filter((w): w is WalletFigures => w !== undefined)
    .sort((a, b) => Number(a.verdict === 'PASS') - Number(b.verdict === 'PASS'));
  if (wallets.length === 0) return '';
  const rows = wallets
    .map((w) => {
      const cells = [
        formatMoney(w.opening, w.currency),
        // No sign on nothing: `−0.00 EUR` read as a debit.
        w.debits === 0 ? formatMoney(0, w.currency) : `−${formatMoney(w.debits, w.currency)}`,
        w.refunds === 0 ? formatMoney(0, w.currency) : `+${formatMoney(w.refunds, w.currency)}`,
        formatMoney(w.closing, w.currency),
        formatMoneyChange(w.change, w.currency),
      ];
      return `<tr><th scope="row">${html(w.agency)}</th><td class="verdict">${verdictBadge(w.verdict)}</td>${cells.map((c) => `<td>${html(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<table class="load-wallets"><caption>Wallets after the load, in each wallet's currency</caption><thead><tr><th>agency</th><th>verdict</th><th>opening</th><th>debits</th><th>refunds</th><th>closing</th><th>change</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The Load section of the HTML report: headline figures, the per-operation
 * table, throughput per second with 429s marked, latency over time and the
 * percentile spectrum. Inline SVG only; every text escaped.
 */
export function renderLoadSection(load: LoadResult): string {
  const t = load.totals;
  const parts: string[] = [
    `<p class="load-figures">${html(`${formatDecimal(num(t.requests), 0)} requests in ${fmt(num(load.durationS), 1)} s · ${withUnit(num(load.rps), 'throughput')} · 429 ${(num(load.rateLimitedRate) * 100).toFixed(1)}% · errors ${(num(load.errorRate) * 100).toFixed(2)}%`)}</p>`,
  ];
  if (load.gates.length > 0) {
    parts.push(gatesTable(load));
  }
  if (Object.keys(load.operations).length > 0) parts.push(opsTable(load.operations), errorsTable(load.operations), outcomeTable(load.operations));
  parts.push(walletTable(load));
  const thresholds = latencyThresholds(load.gates);
  // The charts of every response carry only the gates on every response; the others get the chart of their own series.
  const everyResponse = thresholds.filter((t) => isEveryResponse(t.series));
  if (load.series.length > 0) {
    parts.push(throughputChart(load.series));
    parts.push(latencyChart(load.series, everyResponse));
  }
  if (load.spectrum.length > 0) parts.push(spectrumChart(load.spectrum, everyResponse, outcomesOf(load.operations.all)));
  parts.push(...gatedSeriesCharts(load.operations, thresholds));
  return parts.join('\n');
}
