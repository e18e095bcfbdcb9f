import type { RateLimitPoint } from '../../results/model.js';
import { html } from '../escape.js';
import { axisTimeLabel, formatOffset, linear, maxOf, minOf, n, niceTicks, timeTicks } from './svg.js';

const W = 600;
const H = 240;
const M = { l: 46, r: 58, t: 14, b: 36 };

/** The limit most points of a bucket reported; limits rarely change mid-run. */
function reportedLimit(points: readonly RateLimitPoint[]): number | undefined {
  const seen = new Map<number, number>();
  for (const p of points) if (typeof p.limit === 'number') seen.set(p.limit, (seen.get(p.limit) ?? 0) + 1);
  return [...seen].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Window used to count requests in use when a response carries no X-RateLimit-Remaining (the reference API's). */
const FALLBACK_WINDOW_MS = 60_000;

/** Requests in use in the window after each point (points sorted by time); a refusal sits at the limit. */
export function inUseSeries(sorted: readonly RateLimitPoint[], limit = reportedLimit(sorted)): Array<{ y: number; refused: boolean; p: RateLimitPoint }> {
  const admittedAt: number[] = [];
  return sorted.map((p) => {
    const refused = p.status === 429;
    if (!refused) admittedAt.push(p.at);
    while (admittedAt.length > 0 && admittedAt[0]! <= p.at - FALLBACK_WINDOW_MS) admittedAt.shift();
    const reported = typeof p.limit === 'number' && typeof p.remaining === 'number' ? p.limit - p.remaining : undefined;
    return { y: refused ? (p.limit ?? limit ?? admittedAt.length) : (reported ?? admittedAt.length), refused, p };
  });
}

type Dot = ReturnType<typeof inUseSeries>[number] & { s: number };

/** Colours of the marks; every one of them is in the legend. */
const MARK = { admitted: '#1a7f37', admitted4xx: '#b35900', failed5xx: '#8250df', refused: '#cf222e', limit: '#0969da' };

function markColour(status: number): string {
  if (status >= 500) return MARK.failed5xx;
  if (status >= 400) return MARK.admitted4xx;
  return status >= 200 && status < 300 ? MARK.admitted : '#6e7781';
}

/** One plot of dots over [fromS, toS] seconds since the panel's first request. */
function plot(label: string, dots: readonly Dot[], fromS: number, toS: number, yMax: number, limit: number | undefined, axisTitle: string): string {
  const x = linear(fromS, toS, M.l, W - M.r);
  const y = linear(0, yMax, H - M.b, M.t);
  const span = toS - fromS;
  const tick = axisTimeLabel(toS);
  const grid = niceTicks(0, yMax, 5)
    .map(
      (v) =>
        `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#eaeef2"/><text x="${M.l - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v}</text>`,
    )
    .join('');
  const xAxis = timeTicks(span)
    .map((v) => fromS + v)
    .map(
      (v) =>
        `<line x1="${n(x(v))}" x2="${n(x(v))}" y1="${H - M.b}" y2="${H - M.b + 4}" stroke="#8c959f"/><text x="${n(x(v))}" y="${H - M.b + 16}" text-anchor="middle">${tick(Number(v.toFixed(3)))}</text>`,
    )
    .join('');
  const limitLine =
    limit !== undefined
      ? `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(limit))}" y2="${n(y(limit))}" stroke="${MARK.limit}" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${W - M.r + 6}" y="${n(y(limit) + 4)}" style="fill:${MARK.limit}">limit ${limit}</text>`
      : '';
  // Refusals drawn last so they sit on top of the admitted run they interrupt.
  const marks = [...dots.filter((d) => !d.refused), ...dots.filter((d) => d.refused)]
    .map((d) => {
      const tip = `+${formatOffset(Number(d.s.toFixed(2)))}: HTTP ${d.p.status}${d.p.remaining !== undefined ? `, remaining ${d.p.remaining}` : ''}${d.p.retryAfterS !== undefined ? `, Retry-After ${d.p.retryAfterS} s` : ''}`;
      return d.refused
        ? `<path d="M${n(x(d.s) - 3.5)} ${n(y(d.y) - 3.5)}l7 7m0 -7l-7 7" stroke="${MARK.refused}" stroke-width="2"><title>${html(tip)}</title></path>`
        : `<circle cx="${n(x(d.s))}" cy="${n(y(d.y))}" r="2.8" fill="${markColour(d.p.status)}" fill-opacity=".8"><title>${html(tip)}</title></circle>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${html(label)}">
${grid}
<line x1="${M.l}" x2="${W - M.r}" y1="${H - M.b}" y2="${H - M.b}" stroke="#8c959f"/>
${xAxis}
<text x="${(M.l + W - M.r) / 2}" y="${H - 4}" text-anchor="middle">${html(axisTitle)}</text>
<text transform="translate(12 ${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle">requests in use in the window</text>
${limitLine}
${marks}
</svg>`;
}

/**
 * The densest stretch of a panel, when the panel is long and most of its
 * points crowd into a small part of it (a burst): runs of points with gaps
 * under a second, the one with most points, if it covers under a tenth of
 * the panel and holds at least 20 points.
 */
export function burstOf(seconds: readonly number[]): { fromS: number; toS: number; count: number } | undefined {
  if (seconds.length < 20) return undefined;
  const total = (seconds[seconds.length - 1] ?? 0) - (seconds[0] ?? 0);
  if (total < 20) return undefined;
  let best: { from: number; to: number; count: number } | undefined;
  let from = 0;
  for (let i = 1; i <= seconds.length; i++) {
    if (i === seconds.length || seconds[i]! - seconds[i - 1]! > 1) {
      const run = { from, to: i - 1, count: i - from };
      if (!best || run.count > best.count) best = run;
      from = i;
    }
  }
  if (!best || best.count < 20) return undefined;
  const fromS = seconds[best.from]!;
  const toS = seconds[best.to]!;
  if (toS - fromS > total / 10) return undefined;
  const pad = Math.max(0.2, (toS - fromS) * 0.05);
  return { fromS: Math.max(0, fromS - pad), toS: toS + pad, count: best.count };
}

/**
 * One panel: the requests in use in the bucket's window after each response,
 * as the service reported it (limit − remaining) or, when it reported nothing,
 * as counted from the admitted requests of the last window; refusals (429)
 * marked at the limit; the limit as a line. A point above the line is a
 * request admitted beyond the limit. A burst too dense to read at the scale
 * of the whole run gets a second plot zoomed onto it.
 */
function renderRateLimitPanel(title: string, points: readonly RateLimitPoint[], clock: TimelineClock = {}): string {
  const axis =
    clock.control === 'mock-admin'
      ? "time since first request, on the mock's clock"
      : clock.control === 'none'
        ? 'time since first request (real time)'
        : 'time since first request';
  const sorted = [...points].sort((a, b) => a.at - b.at);
  const t0 = sorted[0]?.at ?? 0;
  const limit = reportedLimit(sorted);
  const dots = inUseSeries(sorted, limit).map((d) => ({ ...d, s: (d.p.at - t0) / 1000 }));
  const admitted = dots.filter((d) => !d.refused).length;
  const refusedCount = dots.filter((d) => d.refused).length;
  const maxS = maxOf(
    1,
    dots.map((d) => d.s),
  );
  const yMax =
    maxOf(
      Math.max(1, limit ?? 0),
      dots.map((d) => d.y),
    ) * 1.08;
  const stats = `${admitted} admitted · ${refusedCount} refused (429)${limit !== undefined ? ` · limit ${limit}` : ''}`;
  const parts = [plot(`Rate-limit timeline ${title}`, dots, 0, maxS, yMax, limit, axis)];
  const burst = burstOf(dots.map((d) => d.s));
  if (burst) {
    const inBurst = dots.filter((d) => d.s >= burst.fromS && d.s <= burst.toS);
    const label = axisTimeLabel(burst.toS);
    parts.push(
      `<h4 class="zoom">Zoom on the burst: ${burst.count} requests from +${label(Number(burst.fromS.toFixed(1)))} to +${label(Number(burst.toS.toFixed(1)))}</h4>`,
    );
    parts.push(plot(`Rate-limit burst ${title}`, inBurst, burst.fromS, burst.toS, yMax, limit, `${axis} (zoomed)`));
  }
  return `<div class="panel chart rate-limit-panel">
<h3>${html(title)} <span class="muted" style="font-weight:400">· ${html(stats)}</span></h3>
${parts.join('\n')}
</div>`;
}

/** Share of the limit below which a bucket that saw no refusal and no error is too quiet to draw. */
const QUIET_SHARE = 0.5;

/** True when a panel shows something: a refusal, or use reaching half the limit (a lone probe answered 4xx is not activity). */
function isActive(points: readonly RateLimitPoint[]): boolean {
  const sorted = [...points].sort((a, b) => a.at - b.at);
  const limit = reportedLimit(sorted);
  if (sorted.some((p) => p.status === 429)) return true;
  const peak = Math.max(0, ...inUseSeries(sorted, limit).map((d) => d.y));
  return limit === undefined || peak >= limit * QUIET_SHARE;
}

/** Which clock the timeline's instants are on, and how long the run took in real time, so the axis is read right. */
interface TimelineClock {
  /** The target's clock control: `mock-admin` when the harness moved the mock's clock instead of waiting. */
  control?: 'mock-admin' | 'none' | undefined;
  /** The run's real duration, ms. */
  runMs?: number | undefined;
}

/** Why the axis may read minutes for a run of seconds: the instants are the mock's, whose clock the harness moves forward. */
function clockNote(points: readonly RateLimitPoint[], clock: TimelineClock): string {
  if (clock.control !== 'mock-admin') return '';
  const spanS =
    points.length > 0
      ? (maxOf(
          Number.NEGATIVE_INFINITY,
          points.map((p) => p.at),
        ) -
          minOf(points.map((p) => p.at))) /
        1000
      : 0;
  const took = clock.runMs !== undefined && Number.isFinite(clock.runMs) ? `, while the whole run took ${humanSeconds(clock.runMs / 1000)} of real time` : '';
  return `<p class="muted clock-note">Times are on the mock's clock, which the harness moves forward instead of waiting out windows and lifetimes: these requests span ${humanSeconds(spanS)} of mock time${took}.</p>`;
}

function humanSeconds(s: number): string {
  return s >= 180 ? `${Number((s / 60).toFixed(1))} min` : `${Number(s.toFixed(1))} s`;
}

/** The rate-limit timeline: one panel per agency and bucket that saw activity, a line for the quiet ones. */
export function renderRateLimitTimeline(points: readonly RateLimitPoint[], clock: TimelineClock = {}): string {
  if (points.length === 0) return '<p class="muted">No rate-limit points were recorded in this run.</p>';
  const panels = new Map<string, RateLimitPoint[]>();
  for (const p of points) {
    const key = `${p.agency} · ${p.bucket}`;
    const list = panels.get(key);
    if (list) list.push(p);
    else panels.set(key, [p]);
  }
  const all = [...panels].sort(([a], [b]) => a.localeCompare(b));
  const active = all.filter(([, pts]) => isActive(pts));
  const quiet = all.filter(([, pts]) => !isActive(pts));
  const quietLine =
    quiet.length > 0
      ? `<p class="muted quiet-buckets">Not drawn, never past half their limit and never refused: ${quiet
          .map(
            ([title, pts]) =>
              `${html(title)} (${pts.length} request${pts.length === 1 ? '' : 's'}${reportedLimit(pts) !== undefined ? `, limit ${reportedLimit(pts)}` : ''})`,
          )
          .join(', ')}.</p>`
      : '';
  const legend = `<div class="legend"><span><i style="background:${MARK.admitted}"></i>admitted (2xx)</span><span><i style="background:${MARK.admitted4xx}"></i>admitted but 4xx</span><span><i style="background:${MARK.failed5xx}"></i>admitted but 5xx</span><span><i style="background:${MARK.refused};border-radius:0;width:9px;height:9px;transform:rotate(45deg)"></i>refused (429)</span><span><i class="line" style="background:${MARK.limit}"></i>limit per window</span></div>`;
  return `${legend}
${clockNote(points, clock)}
<div class="charts" id="rate-limit-timeline">${active.map(([title, pts]) => renderRateLimitPanel(title, pts, clock)).join('\n')}</div>
${quietLine}`;
}
