import { html } from '../escape.js';
import { linear, n, niceTicks } from './svg.js';

/*
 * A line chart with labelled axes and units, in the look of the run
 * report's charts (same frame, grid, fonts): the comparison overlays two
 * runs with it and the trend page draws a run per point.
 */

const M = { l: 64, r: 16, t: 14, b: 44 };

/** One line of a chart. */
export interface LineSeries {
  label: string;
  colour: string;
  /** Dashed lines are the baseline (BASE) in a comparison. */
  dashed?: boolean;
  points: Array<{ x: number; y: number; title?: string }>;
}

/** What to draw. */
interface LineChartSpec {
  title: string;
  series: LineSeries[];
  /** Axis titles, with the unit: `latency (ms)`. */
  xTitle: string;
  yTitle: string;
  /** Tick positions (in x units) and labels; by default round numbers. */
  xTicks?: Array<[number, string]>;
  xDomain?: [number, number];
  yFormat?: (v: number) => string;
  /** Draw dots on the points (few points, as on the trend page). */
  dots?: boolean;
  /** Size of the view box: small multiples are narrower so their text stays readable. @defaultValue 720 × 240 */
  width?: number;
  height?: number;
  /** Counts: y ticks on whole numbers only. */
  integers?: boolean;
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2)));
}

/** A self-contained SVG line chart in a figure with its legend; every text escaped. */
export function renderLineChart(spec: LineChartSpec): string {
  const W = spec.width ?? 720;
  const H = spec.height ?? 240;
  // Bounds in one loop: Math.min(...points) passes each point as an argument, and 200 000 of them overflow the stack.
  let [xLo, xHi, yHi] = [0, 1, 0.001];
  for (const s of spec.series) {
    for (const p of s.points) {
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
      if (p.x < xLo) xLo = p.x;
      if (p.x > xHi) xHi = p.x;
      if (p.y > yHi) yHi = p.y;
    }
  }
  const [x0, x1] = spec.xDomain ?? [xLo, xHi];
  const yMax = yHi * 1.08;
  const x = linear(x0, x1, M.l, W - M.r);
  const y = linear(0, yMax, H - M.b, M.t);
  const yTicks = spec.integers ? niceTicks(0, Math.max(yMax, 1), 5).filter(Number.isInteger) : niceTicks(0, yMax, 5);
  const yFormat = spec.yFormat ?? fmt;
  const xTicks = spec.xTicks ?? niceTicks(x0, x1, W < 600 ? 4 : 6).map((t): [number, string] => [t, fmt(t)]);
  const grid = yTicks
    .map(
      (t) =>
        `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(t))}" y2="${n(y(t))}" stroke="#d0d7de" stroke-width="0.5"/><text x="${M.l - 6}" y="${n(y(t) + 4)}" text-anchor="end" font-size="10">${html(yFormat(t))}</text>`,
    )
    .join('');
  const xs = xTicks.map(([v, label]) => `<text x="${n(x(v))}" y="${H - M.b + 14}" text-anchor="middle" font-size="10">${html(label)}</text>`).join('');
  const lines = spec.series
    .map((s) => {
      const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
      const poly = `<polyline class="series" data-series="${html(s.label)}" fill="none" stroke="${html(s.colour)}" stroke-width="${s.dashed ? 1.5 : 2}"${s.dashed ? ' stroke-dasharray="5 3"' : ''} points="${pts.map((p) => `${n(x(p.x))},${n(y(p.y))}`).join(' ')}"/>`;
      const dots =
        spec.dots || pts.length === 1
          ? pts
              .map(
                (p) =>
                  `<circle cx="${n(x(p.x))}" cy="${n(y(p.y))}" r="3" fill="${html(s.colour)}"><title>${html(p.title ?? `${s.label}: ${yFormat(p.y)}`)}</title></circle>`,
              )
              .join('')
          : '';
      return poly + dots;
    })
    .join('');
  const axes = `<line x1="${M.l}" x2="${M.l}" y1="${M.t}" y2="${H - M.b}" stroke="#57606a"/><line x1="${M.l}" x2="${W - M.r}" y1="${H - M.b}" y2="${H - M.b}" stroke="#57606a"/>`;
  const titles = `<text class="y-title" transform="translate(12 ${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle" font-size="10">${html(spec.yTitle)}</text><text class="x-title" x="${(M.l + W - M.r) / 2}" y="${H - 6}" text-anchor="middle" font-size="10">${html(spec.xTitle)}</text>`;
  // A dashed line's key is dashed too, so BASE reads as the dashed line in the legend as on the chart.
  const key = (s: LineSeries): string => (s.dashed ? `height:0;background:none;border-top:2px dashed ${html(s.colour)}` : `background:${html(s.colour)}`);
  const legend = `<p class="legend">${spec.series.map((s) => `<span><i class="line" style="${key(s)}"></i>${html(s.label)}</span>`).join('')}</p>`;
  return `<figure class="chart panel"><svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${html(spec.title)}" xmlns="http://www.w3.org/2000/svg">${grid}${xs}${lines}${axes}${titles}</svg><figcaption>${html(spec.title)}</figcaption>${legend}</figure>`;
}
