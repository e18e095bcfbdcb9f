import { durationText } from '../../log/duration-text.js';
import { html } from '../escape.js';
import { COMPARE_STYLES } from '../html/compare-styles.js';
import { renderLayout } from '../html/layout.js';
import { renderLineChart, type LineSeries } from '../html/line-chart.js';
import { VERDICT_COLOUR } from '../html/palette.js';
import { withUnit } from '../../results/gate-units.js';
import { trendAreas, trendTargets, type AreaCounts, type TrendPoint } from './trend-points.js';

/** Colours of lines that are not verdicts (operations, kinds of run), in turn. */
const SERIES_COLOURS = ['#0969da', '#8250df', '#1a7f37', '#b35900', '#cf222e', '#6e7781', '#bf3989', '#116329', '#953800', '#0550ae'];
const KNOWN_COLOUR = '#bf8700';

/** The look of the `j`th series of a chart: a colour of its own, and past the palette the same colours dashed, so no two series look alike. */
function seriesStyle(j: number): Pick<LineSeries, 'colour' | 'dashed'> {
  return { colour: SERIES_COLOURS[j % SERIES_COLOURS.length]!, ...(Math.floor(j / SERIES_COLOURS.length) % 2 === 1 ? { dashed: true } : {}) };
}

/** A series' label, naming its target when the runs have more than one. */
function perTarget(label: string, target: string, targets: readonly string[]): string {
  return targets.length > 1 ? `${label} · ${target}` : label;
}

/** Run start as a tick label: `11-25 15:51` (UTC), with seconds when two runs share a minute. */
function shortTime(iso: string, seconds: boolean): string {
  const m = /^\d{4}-(\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?/.exec(iso);
  return m ? `${m[1]} ${m[2]}${seconds ? (m[3] ?? '') : ''}` : iso;
}

/**
 * x ticks at about `count` runs, each labelled with its start, at least a
 * step apart: the last run's tick takes the place of the one before it when
 * that one is nearer than a step, so no two labels overlap. Labels with
 * seconds are longer: fewer of them.
 */
function runTicks(points: readonly TrendPoint[], count: number): Array<[number, string]> {
  const minutes = points.map((p) => p.startedAt.slice(0, 16));
  const seconds = new Set(minutes).size < minutes.length;
  const step = Math.max(1, Math.ceil(points.length / Math.max(2, seconds ? Math.floor((count * 3) / 4) : count)));
  const last = points.length - 1;
  const at = points.flatMap((_, i) => (i % step === 0 && (i === last || last - i >= step) ? [i] : []));
  if (last >= 0 && at.at(-1) !== last) at.push(last);
  return at.map((i): [number, string] => [i, shortTime(points[i]!.startedAt, seconds)]);
}

const X_TITLE = 'run, by start time (UTC)';

function chart(title: string, yTitle: string, points: readonly TrendPoint[], series: LineSeries[], small = false): string {
  return renderLineChart({
    title,
    series: series.filter((s) => s.points.length > 0),
    xTitle: X_TITLE,
    yTitle,
    xTicks: runTicks(points, small ? 4 : 8),
    xDomain: [-0.3, Math.max(1, points.length - 1) + 0.3],
    dots: true,
    ...(small ? { width: 480, height: 220, integers: true } : {}),
  });
}

/** Which runs' cases an area chart counts: the suite's (and certificates') areas, or the verdicts under load, never both on one line. */
type CaseSource = 'suite' | 'load';

function sourceOf(p: TrendPoint): CaseSource | undefined {
  return p.kind === 'load' ? 'load' : p.kind === 'selftest' ? undefined : 'suite';
}

function areaChart(area: string, source: CaseSource, points: readonly TrendPoint[], target?: string): string {
  const line = (label: string, colour: string, key: keyof AreaCounts): LineSeries => ({
    label,
    colour,
    points: points.flatMap((p, i) => {
      const a = sourceOf(p) === source && (target === undefined || p.target === target) ? p.areas[area] : undefined;
      return a ? [{ x: i, y: a[key], title: `${p.runId}: ${a[key]} ${label}` }] : [];
    }),
  });
  const series = [line('passed', VERDICT_COLOUR.PASS, 'passed'), line('failed', VERDICT_COLOUR.FAIL, 'failed')];
  if (points.some((p) => sourceOf(p) === source && (target === undefined || p.target === target) && (p.areas[area]?.known ?? 0) > 0))
    series.push(line('known', KNOWN_COLOUR, 'known'));
  return chart(`${area}${source === 'load' ? ' under load' : ''}${target !== undefined ? ` · ${target}` : ''}: cases per run`, 'cases', points, series, true);
}

function durationChart(points: readonly TrendPoint[]): string {
  const targets = trendTargets(points);
  const lines = targets.flatMap((t) => [...new Set(points.filter((p) => p.target === t).map((p) => p.kind))].map((k) => ({ t, k })));
  const series = lines.map(({ t, k }, j): LineSeries => ({
    label: perTarget(`${k} runs`, t, targets),
    ...seriesStyle(j),
    points: points.flatMap((p, i) =>
      p.kind === k && p.target === t ? [{ x: i, y: p.durationS, title: `${p.runId}: ${durationText(p.durationS * 1000, { tenths: true })}` }] : [],
    ),
  }));
  return chart('Run duration', 'duration (s)', points, series);
}

function loadCharts(points: readonly TrendPoint[]): string[] {
  if (!points.some((p) => p.load)) return [];
  const loads = points.filter((p) => p.load);
  const targets = trendTargets(loads);
  const ops = [...new Set(loads.flatMap((p) => Object.keys(p.load?.p95 ?? {})))].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  const pairs = targets.flatMap((t) => ops.filter((op) => loads.some((p) => p.target === t && p.load?.p95[op] !== undefined)).map((op) => ({ t, op })));
  const p95 = pairs.map(({ t, op }, j): LineSeries => ({
    label: perTarget(op === 'all' ? 'every operation' : op, t, targets),
    ...seriesStyle(j),
    points: points.flatMap((p, i) =>
      p.target === t && p.load?.p95[op] !== undefined
        ? [{ x: i, y: p.load.p95[op]!, title: `${p.runId} ${op} p95: ${withUnit(p.load.p95[op]!, 'latency')}` }]
        : [],
    ),
  }));
  const rps = targets.map((t, j): LineSeries => ({
    label: perTarget('throughput', t, targets),
    ...seriesStyle(j),
    points: points.flatMap((p, i) => (p.target === t && p.load ? [{ x: i, y: p.load.rps, title: `${p.runId}: ${withUnit(p.load.rps, 'throughput')}` }] : [])),
  }));
  return [
    chart('Load: p95 latency per operation', 'p95 latency (ms)', points, p95),
    chart('Load: throughput', 'throughput (requests per second)', points, rps),
  ];
}

function runsTable(points: readonly TrendPoint[]): string {
  const rows = points.map(
    (p, i) =>
      `<tr><td>${i + 1}</td><td class="left"><code>${html(p.runId)}</code></td><td class="left">${html(p.target)}</td><td class="left">${html(p.kind)}</td><td class="left">${html(p.startedAt)}</td><td class="left">${html(p.verdict)}</td><td>${html(durationText(p.durationS * 1000, { tenths: true }))}</td><td class="left path"><code>${html(p.file)}</code></td></tr>`,
  );
  return `<table class="delta"><thead><tr><th>#</th><th class="left">run</th><th class="left">target</th><th class="left">kind</th><th class="left">started</th><th class="left">verdict</th><th>duration</th><th class="left">file</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${html(id)}"><h2>${html(title)}</h2>\n${body}\n</section>`;
}

/**
 * `trend.html`: one self-contained page over runs in time order: cases
 * passed, failed and known per area, run duration, and for loads p95 per
 * operation and throughput, each a chart with labelled axes and units.
 */
export function renderTrendHtml(points: readonly TrendPoint[]): string {
  const first = points[0];
  const lastPoint = points[points.length - 1];
  const head = `<section class="banner"><div class="run"><h1>Trend over ${points.length} run${points.length === 1 ? '' : 's'}</h1><div class="meta"><span>From <b>${html(first?.startedAt ?? '–')}</b></span><span>to <b>${html(lastPoint?.startedAt ?? '–')}</b></span><span>Kinds <b>${html([...new Set(points.map((p) => p.kind))].join(', '))}</b></span><span>Targets <b>${html(trendTargets(points).join(', '))}</b></span></div></div></section>`;
  const parts = [COMPARE_STYLES, head];
  // One chart per area, and per target when the runs tested more than one: a target's cases never add to another's.
  const targets = trendTargets(points);
  const charts = (['suite', 'load'] as const).flatMap((source) =>
    (targets.length > 1 ? targets : [undefined]).flatMap((t) =>
      trendAreas(points.filter((p) => sourceOf(p) === source && (t === undefined || p.target === t))).map((a) => areaChart(a, source, points, t)),
    ),
  );
  if (charts.length > 0) parts.push(section('areas', 'Cases per area', `<div class="charts tiles">${charts.join('')}</div>`));
  parts.push(section('duration', 'Run duration', `<div class="charts small">${durationChart(points)}</div>`));
  const load = loadCharts(points);
  if (load.length > 0) parts.push(section('load', 'Load', `<div class="charts small">${load.join('')}</div>`));
  parts.push(section('runs', 'Runs', runsTable(points)));
  return renderLayout(`Trend · ${points.length} runs`, parts.join('\n'));
}
