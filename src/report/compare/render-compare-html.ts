import { durationText } from '../../log/duration-text.js';
import { html } from '../escape.js';
import { gateFigures } from '../../results/gate-units.js';
import type { SecondFigures, Spectrum } from '../../results/load-result.js';
import { COMPARE_STYLES } from '../html/compare-styles.js';
import { renderLayout } from '../html/layout.js';
import { renderLineChart, type LineSeries } from '../html/line-chart.js';
import { axisTimeLabel, timeTicks } from '../html/svg.js';
import { CASE_CHANGES, type CaseDelta, type LoadComparison, type MetricDelta, type RunComparison, type RunLabel } from './comparison.js';
import {
  CASE_CHANGE_TITLE,
  formatInterval,
  formatMetricChange,
  formatMetricValue,
  HEADLINE_KEYS,
  headlineMetrics,
  metricJudgement,
  notableMetrics,
  opLabel,
} from './format-delta.js';
import { describeLimits } from '../../load/gate/regression-limits.js';
import { MIN_SAMPLES_BEYOND } from '../../load/gate/regression-rule.js';

/** BASE is drawn grey and dashed, NEW in the report's blue: the eye reads NEW against the old line. */
const BASE_COLOUR = '#6e7781';
const NEW_COLOUR = '#0969da';

function section(id: string, title: string, body: string): string {
  return `<section id="${html(id)}"><h2>${html(title)}</h2>\n${body}\n</section>`;
}

function runMeta(side: string, r: RunLabel): string {
  return `<span>${html(side)} <b>${html(r.runId)}</b> · ${html(r.verdict)} · started ${html(r.startedAt)} · ${html(durationText(r.durationMs, { tenths: true }))}</span>`;
}

/** The banner's counts, each a link to its section when the page has one (`sections`: the ids rendered), as the run report's area cards link to their failures. */
function banner(c: RunComparison, sections: ReadonlySet<string>): string {
  const k = c.counts;
  const count = (v: number, label: string, cls: string, target?: string): string => {
    const inner = `<b>${v}</b><span>${html(label)}</span>`;
    const classes = `count ${cls}${v === 0 ? ' zero' : ''}`;
    return v > 0 && target && sections.has(target) ? `<a class="${classes}" href="#${html(target)}">${inner}</a>` : `<div class="${classes}">${inner}</div>`;
  };
  const still = c.cases.filter((d) => d.change === 'still-failing').length;
  const sub = c.newlyInconclusive
    ? 'NEW proves nothing (INCONCLUSIVE)'
    : c.regressed
      ? `${k.newlyFailing + k.regressions + k.newlyBrokenGates} change(s) for the worse`
      : 'nothing newly fails or regresses';
  return `<section class="banner">
<div class="verdict verdict-${c.regressed ? 'fail' : 'pass'}"><strong>${c.regressed ? 'WORSE' : 'OK'}</strong><span>${html(sub)}</span></div>
<div class="run">
<h1>Comparison of two ${html(c.base.kind)} runs <span class="muted">· ${html(c.new.target)}</span></h1>
<div class="meta">${runMeta('BASE', c.base)}${runMeta('NEW', c.new)}</div>
<div class="counts">${count(k.newlyFailing, 'Newly failing', 'c-fail', 'newly-failing')}${c.load ? count(k.regressions, 'Regressions', 'c-fail', 'regressions') : ''}${c.gates.length > 0 ? count(k.newlyBrokenGates, 'Gates broken', 'c-fail', 'gates') : ''}${count(still, 'Still failing', 'c-error', 'still-failing')}${count(k.fixed, 'Fixed', 'c-pass', 'fixed')}${c.load ? count(k.improvements, 'Improvements', 'c-pass', 'improvements') : ''}${count(c.unchanged, 'Unchanged', 'c-skip')}</div>
</div>
</section>
${c.notes.length > 0 ? `<ul class="notes">${c.notes.map((n) => `<li>${html(n)}</li>`).join('')}</ul>` : ''}`;
}

/**
 * Most metrics listed one row each with their intervals and judgement (40
 * operations of 30 metrics). Past it, only those past their limit are, and
 * every metric is shown by value in a grid of one row per operation and
 * outcome: 3 000 operations made 90 000 rows and an 18 MB page.
 */
const FULL_METRIC_ROWS = 1200;
/** Most rows of one table of metrics; the rest are counted, and all are in `--json`. */
const MAX_METRIC_ROWS = 2000;

/** One run's side of a failure card; NEW's message is the card's `.msg`, the sentence saying what broke. */
function side(title: string, s: CaseDelta['base'], broke = false): string {
  return `<div><h4>${html(title)}</h4>${s ? `<b>${html(s.verdict)}</b> <span${broke ? ' class="msg"' : ''}>${html(s.message)}</span>` : '<span class="muted">absent from this run</span>'}</div>`;
}

/** Newly failing cases as the run report's failure cards, BASE and NEW messages side by side. */
function failureCards(list: readonly CaseDelta[]): string {
  return list
    .map(
      (d) =>
        `<article class="failure" id="case-${html(d.id)}"><header><code class="case-id">${html(d.id)}</code><span class="muted">${html(d.area)}</span><span>${html(d.title)}</span></header><div class="pair">${side('BASE', d.base)}${side('NEW', d.new, true)}</div></article>`,
    )
    .join('\n');
}

function caseTable(list: readonly CaseDelta[]): string {
  const rows = list.map(
    (d) =>
      `<tr><td><code class="case-id">${html(d.id)}</code></td><td class="left">${html(d.area)}</td><td class="msg">${d.base ? `<b>${html(d.base.verdict)}</b> ${html(d.base.message)}` : '<span class="muted">absent</span>'}</td><td class="msg">${d.new ? `<b>${html(d.new.verdict)}</b> ${html(d.new.message)}` : '<span class="muted">absent</span>'}</td></tr>`,
  );
  return `<table class="delta"><thead><tr><th>case</th><th class="left">area</th><th class="left">BASE</th><th class="left">NEW</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Metrics one row each, with their change, intervals and judgement; past {@link MAX_METRIC_ROWS}, the rest counted. */
function metricTable(list: readonly MetricDelta[]): string {
  const rows = list.slice(0, MAX_METRIC_ROWS).map((m) => {
    const cls = m.regression ? 'worse' : m.improvement ? 'better' : '';
    return `<tr class="${cls}"><td><code>${html(m.metric)}</code></td><td>${html(formatMetricValue(m, m.base))}</td><td>${html(formatMetricValue(m, m.new))}</td><td class="${m.regression ? 'worse-text' : m.improvement ? 'better-text' : ''}">${html(formatMetricChange(m))}</td><td>${html(formatInterval(m, m.baseInterval))}</td><td>${html(formatInterval(m, m.newInterval))}</td><td class="left">${html(metricJudgement(m))}</td></tr>`;
  });
  const more =
    list.length > MAX_METRIC_ROWS
      ? `<p class="muted">… and ${list.length - MAX_METRIC_ROWS} more, not listed here: each is in the table of every metric by value, and with its intervals and judgement in <code>svc-harness report compare BASE NEW --json</code>.</p>`
      : '';
  return `<table class="delta"><thead><tr><th>metric</th><th>BASE</th><th>NEW</th><th>change</th><th>BASE 95% interval</th><th>NEW 95% interval</th><th class="left">judged</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

/** The keys of the grid of every metric by value, in column order, with their headings. */
const GRID_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['rps', 'throughput'],
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p95', 'p95'],
  ['p99', 'p99'],
  ['p99_9', 'p99.9'],
  ['max', 'max'],
  ['errors.rate', 'errors'],
  ['429.rate', '429'],
];

/**
 * Every metric by value, one row per operation and outcome: `BASE → NEW`,
 * one figure where both runs read the same, a regression red and an
 * improvement green. Its intervals and judgement are left to the tables of
 * the metrics past their limit and to `--json`.
 */
function metricGrid(metrics: readonly MetricDelta[]): string {
  const rows: string[] = [];
  let row: { op: string; outcome: string; cells: Map<string, MetricDelta> } | undefined;
  const flush = (): void => {
    if (!row) return;
    const cells = GRID_KEYS.map(([key]) => {
      const m = row!.cells.get(key);
      if (!m) return '<td>–</td>';
      const [b, n] = [formatMetricValue(m, m.base), formatMetricValue(m, m.new)];
      return `<td${m.regression ? ' class="worse-text"' : m.improvement ? ' class="better-text"' : ''}>${html(b === n ? n : `${b} → ${n}`)}</td>`;
    });
    rows.push(`<tr><td>${html(opLabel(row.op))}</td><td class="left">${row.outcome === 'any' ? 'every answer' : html(row.outcome)}</td>${cells.join('')}</tr>`);
  };
  // Metrics come by operation, then outcome (regression-rule.ts): a row ends where either changes.
  for (const m of metrics) {
    if (!row || row.op !== m.op || row.outcome !== m.outcome) {
      flush();
      row = { op: m.op, outcome: m.outcome, cells: new Map() };
    }
    row.cells.set(m.key, m);
  }
  flush();
  return `<table class="delta"><thead><tr><th>operation</th><th class="left">answers</th>${GRID_KEYS.map(([, title]) => `<th>${title}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * The metrics of a load below its charts: every one a row of its own when
 * they are few; else those past their limit so (within the noise, or not
 * judged), and every metric by value in a grid, saying how many are shown by
 * value only and where their intervals are.
 */
function everyMetric(l: LoadComparison, notable: ReturnType<typeof notableMetrics>): string[] {
  if (l.metrics.length <= FULL_METRIC_ROWS)
    return [`<details><summary>Every metric, by operation and outcome (${l.metrics.length})</summary>${metricTable(l.metrics)}</details>`];
  const out: string[] = [];
  if (notable.withinNoise.length > 0)
    out.push(
      `<details><summary>Past the limit but within the noise of the samples (${notable.withinNoise.length})</summary>${metricTable(notable.withinNoise)}</details>`,
    );
  if (notable.notJudged.length > 0)
    out.push(`<details><summary>Past the limit but not judged (${notable.notJudged.length})</summary>${metricTable(notable.notJudged)}</details>`);
  const listed = notable.regressions.length + notable.improvements.length + notable.withinNoise.length + notable.notJudged.length;
  const ops = new Set(l.metrics.map((m) => m.op)).size;
  out.push(
    `<details><summary>Every metric by value, by operation and outcome (${l.metrics.length} metrics of ${ops} operations)</summary><p class="muted">BASE → NEW; one figure where both runs read the same; red a regression, green an improvement. The ${listed} metric(s) past their limit are listed above, each with its change, 95% intervals and judgement; the other ${l.metrics.length - listed} (within their limit, measured in one run only, or a max, which is never judged) are shown here by value only: <code>svc-harness report compare BASE NEW --json</code> gives every metric with its intervals and judgement.</p>${metricGrid(l.metrics)}</details>`,
  );
  return out;
}

function headlineTable(metrics: readonly MetricDelta[]): string {
  const ops = [...new Set(metrics.map((m) => m.op))];
  const cols = HEADLINE_KEYS;
  const headline = headlineMetrics(metrics);
  const rows = ops.map((op) => {
    const cells = cols.map((key) => {
      const m = headline(op, key);
      if (!m) return '<td>–</td>';
      const cls = m.regression ? 'worse-text' : m.improvement ? 'better-text' : '';
      return `<td title="BASE ${html(formatMetricValue(m, m.base))}">${html(formatMetricValue(m, m.new))}<br><span class="${cls || 'muted'}">${html(formatMetricChange(m))}</span></td>`;
    });
    return `<tr><td>${html(opLabel(op))}</td>${cells.join('')}</tr>`;
  });
  return `<table class="delta"><thead><tr><th>operation</th><th>p50</th><th>p95</th><th>p99</th><th>throughput</th><th>errors</th><th>429</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** x of a percentile on a log scale of 1/(1−p): 90% at 1, 99% at 2, 99.9% at 3; the max one decade past the last point. */
function spectrumSeries(label: string, colour: string, dashed: boolean, s: Spectrum, kMax: number): LineSeries {
  const k = (p: number): number => (p >= 100 ? kMax : Math.log10(1 / (1 - p / 100)));
  return {
    label,
    colour,
    dashed,
    points: s.map((p) => ({ x: k(p.percentile), y: p.ms, title: `${label} p${Number(p.percentile.toFixed(3))}: ${Number(p.ms.toFixed(3))} ms` })),
  };
}

function spectrumChart(op: string, base: Spectrum, now: Spectrum): string {
  const finite = [...base, ...now].filter((p) => p.percentile < 100).map((p) => Math.log10(1 / (1 - p.percentile / 100)));
  const kMax = Math.max(1, ...finite) + 0.5;
  const ticks: Array<[number, string]> = (
    [
      [Math.log10(2), '50%'],
      [1, '90%'],
      [2, '99%'],
      [3, '99.9%'],
      [4, '99.99%'],
    ] as Array<[number, string]>
  ).filter(([v]) => v < kMax - 0.2);
  ticks.push([kMax, 'max']);
  const series = [spectrumSeries('BASE', BASE_COLOUR, true, base, kMax), spectrumSeries('NEW', NEW_COLOUR, false, now, kMax)].filter(
    (s) => s.points.length > 0,
  );
  return renderLineChart({
    title: `${opLabel(op)}: latency by percentile, BASE vs NEW (HDR histograms)`,
    series,
    xTitle: 'percentile of responses (log scale of 1/(1−p))',
    yTitle: 'response latency (ms)',
    xTicks: ticks,
    xDomain: [0, kMax],
  });
}

function throughputChart(base: readonly SecondFigures[], now: readonly SecondFigures[]): string {
  const line = (label: string, colour: string, dashed: boolean, s: readonly SecondFigures[]): LineSeries => {
    const t0 = s[0]?.second ?? 0;
    return {
      label,
      colour,
      dashed,
      points: s.map((p) => ({ x: p.second - t0 + 0.5, y: p.requests, title: `${label} ${p.second - t0} s: ${p.requests} responses` })),
    };
  };
  const span = Math.max(1, ...[base, now].map((s) => (s.length > 0 ? s[s.length - 1]!.second - s[0]!.second + 1 : 1)));
  const label = axisTimeLabel(span);
  return renderLineChart({
    title: 'Throughput per second, BASE vs NEW',
    series: [line('BASE', BASE_COLOUR, true, base), line('NEW', NEW_COLOUR, false, now)],
    xTitle: 'time since the load started',
    yTitle: 'responses per second',
    xDomain: [0, span],
    xTicks: timeTicks(span).map((t): [number, string] => [t, label(t)]),
  });
}

/**
 * `compare.html`: one self-contained page in the run report's style: the
 * verdict of the comparison, newly failing cases and regressions first, the
 * gates on both runs, every other change, and for loads the two runs'
 * charts overlaid (percentile spectrum per operation, throughput).
 */
export function renderCompareHtml(c: RunComparison): string {
  const parts: string[] = [];
  /** The ids of the sections drawn, which the banner's counts may link to. */
  const sections = new Set<string>();
  const add = (id: string, title: string, body: string): void => {
    sections.add(id);
    parts.push(section(id, title, body));
  };
  const by = (ch: string): CaseDelta[] => c.cases.filter((d) => d.change === ch);
  if (by('newly-failing').length > 0) add('newly-failing', `Newly failing (${by('newly-failing').length})`, failureCards(by('newly-failing')));
  const notable = c.load ? notableMetrics(c.load.metrics) : undefined;
  if (notable && notable.regressions.length > 0) add('regressions', `Regressions (${notable.regressions.length})`, metricTable(notable.regressions));
  if (c.gates.length > 0) {
    const rows = c.gates.map(
      (g) =>
        `<tr class="${g.newlyBroken ? 'worse' : ''}"><td><code>${html(g.source)}</code></td><td>${g.base.passed ? '✓' : '✗'} ${html(gateFigures(g.base).actual)}</td><td>${g.new.passed ? '✓' : '✗'} ${html(gateFigures(g.new).actual)}</td><td>${html(gateFigures(g.new).limit)}</td><td class="left">${g.newlyBroken ? '<span class="worse-text">newly broken</span>' : g.new.passed ? 'held' : g.base.passed ? 'broken' : 'still broken'}</td></tr>`,
    );
    add(
      'gates',
      'Gates on both runs',
      `<table class="delta"><thead><tr><th>gate</th><th>BASE</th><th>NEW</th><th>bound</th><th class="left">verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  for (const change of CASE_CHANGES.filter((ch) => ch !== 'newly-failing')) {
    const list = by(change);
    if (list.length > 0) add(change, `${CASE_CHANGE_TITLE[change]} (${list.length})`, caseTable(list));
  }
  if (c.load) {
    const l = c.load;
    // The spectra of `all` and the regressed operations first, a few tens at most (load-diff.ts).
    const charted = l.spectra;
    const body = [
      `<p class="muted">A change is a regression when it is worse than ${html(describeLimits(l.limits))} and the 95% intervals of the two runs do not overlap (percentiles: order statistics of each run's exact HDR histogram, widened to its buckets; rates: Wilson; throughput: Poisson). What the offered load drives (the throughput of every answer, of 429s, of other statuses; the 2xx throughput and the 429 share where the runs offered different rates), a percentile with fewer than ${MIN_SAMPLES_BEYOND} answers above it and the harness's own requests around the load are shown, never judged.</p>`,
      headlineTable(l.metrics),
      `<div class="charts">${charted
        .map((s) => spectrumChart(s.op, s.base, s.new))
        .join('')}${l.series.base.length + l.series.new.length > 0 ? throughputChart(l.series.base, l.series.new) : ''}</div>`,
      ...(l.spectrumOps > charted.length
        ? [
            `<p class="muted">Latency spectra of ${charted.length} of the ${l.spectrumOps} operations are drawn (every operation, the regressed ones first); every figure of each is in the table of every metric below.</p>`,
          ]
        : []),
    ];
    if (notable && notable.improvements.length > 0) {
      sections.add('improvements');
      body.push(`<h3 id="improvements">Improvements</h3>${metricTable(notable.improvements)}`);
    }
    body.push(...everyMetric(l, notable!));
    add('load', 'Load', body.join('\n'));
  }
  parts.unshift(COMPARE_STYLES, banner(c, sections));
  parts.push(
    `<footer>BASE <code>${html(c.base.file)}</code> · <code>${html(c.base.command)}</code><br>NEW <code>${html(c.new.file)}</code> · <code>${html(c.new.command)}</code> · schema ${html(c.schema)}</footer>`,
  );
  return renderLayout(`${c.regressed ? 'WORSE' : 'OK'} · compare ${c.base.runId} → ${c.new.runId}`, parts.join('\n'));
}
