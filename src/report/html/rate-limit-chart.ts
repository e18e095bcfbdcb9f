import type { RateLimitPoint } from '../model.js';
import { html } from '../escape.js';
import { statusColour } from './palette.js';
import { formatOffset, linear, n, niceTicks, timeTicks } from './svg.js';

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

/**
 * One panel: the requests in use in the bucket's window after each response,
 * as the service reported it (limit − remaining) or, when it reported nothing,
 * as counted from the admitted requests of the last window; refusals (429)
 * marked at the limit; the limit as a line. A point above the line is a
 * request admitted beyond the limit.
 */
export function renderRateLimitPanel(title: string, points: readonly RateLimitPoint[]): string {
  const sorted = [...points].sort((a, b) => a.at - b.at);
  const t0 = sorted[0]?.at ?? 0;
  const limit = reportedLimit(sorted);
  const dots = inUseSeries(sorted, limit).map((d) => ({ ...d, s: (d.p.at - t0) / 1000 }));
  const admitted = dots.filter((d) => !d.refused).length;
  const refusedCount = dots.filter((d) => d.refused).length;
  const maxS = Math.max(1, ...dots.map((d) => d.s));
  const yMax = Math.max(1, ...dots.map((d) => d.y), limit ?? 0) * 1.08;
  const x = linear(0, maxS, M.l, W - M.r);
  const y = linear(0, yMax, H - M.b, M.t);
  const grid = niceTicks(0, yMax, 5)
    .map((v) => `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#eaeef2"/><text x="${M.l - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v}</text>`)
    .join('');
  const xAxis = timeTicks(maxS)
    .map((v) => `<line x1="${n(x(v))}" x2="${n(x(v))}" y1="${H - M.b}" y2="${H - M.b + 4}" stroke="#8c959f"/><text x="${n(x(v))}" y="${H - M.b + 16}" text-anchor="middle">${formatOffset(v)}</text>`)
    .join('');
  const limitLine = limit !== undefined
    ? `<line x1="${M.l}" x2="${W - M.r}" y1="${n(y(limit))}" y2="${n(y(limit))}" stroke="#0969da" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${W - M.r + 6}" y="${n(y(limit) + 4)}" style="fill:#0969da">limit ${limit}</text>`
    : '';
  // Refusals drawn last so they sit on top of the admitted run they interrupt.
  const marks = [...dots.filter((d) => !d.refused), ...dots.filter((d) => d.refused)]
    .map((d) => {
      const tip = `+${formatOffset(Number(d.s.toFixed(2)))}: HTTP ${d.p.status}${d.p.remaining !== undefined ? `, remaining ${d.p.remaining}` : ''}${d.p.retryAfterS !== undefined ? `, Retry-After ${d.p.retryAfterS} s` : ''}`;
      const colour = d.refused ? '#cf222e' : statusColour(d.p.status);
      return d.refused
        ? `<path d="M${n(x(d.s) - 3.5)} ${n(y(d.y) - 3.5)}l7 7m0 -7l-7 7" stroke="${colour}" stroke-width="2"><title>${html(tip)}</title></path>`
        : `<circle cx="${n(x(d.s))}" cy="${n(y(d.y))}" r="2.8" fill="${colour}" fill-opacity=".8"><title>${html(tip)}</title></circle>`;
    })
    .join('');
  const stats = `${admitted} admitted · ${refusedCount} refused (429)${limit !== undefined ? ` · limit ${limit}` : ''}`;
  return `<div class="panel chart rate-limit-panel">
<h3>${html(title)} <span class="muted" style="font-weight:400">· ${html(stats)}</span></h3>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${html(`Rate-limit timeline ${title}`)}">
${grid}
<line x1="${M.l}" x2="${W - M.r}" y1="${H - M.b}" y2="${H - M.b}" stroke="#8c959f"/>
${xAxis}
<text x="${(M.l + W - M.r) / 2}" y="${H - 4}" text-anchor="middle">time since first request</text>
<text transform="translate(12 ${(M.t + H - M.b) / 2}) rotate(-90)" text-anchor="middle">in use in the window</text>
${limitLine}
${marks}
</svg>
</div>`;
}

/** The rate-limit timeline: one panel per agency and bucket. */
export function renderRateLimitTimeline(points: readonly RateLimitPoint[]): string {
  if (points.length === 0) return '<p class="muted">No rate-limit points were recorded in this run.</p>';
  const panels = new Map<string, RateLimitPoint[]>();
  for (const p of points) {
    const key = `${p.agency} · ${p.bucket}`;
    const list = panels.get(key);
    if (list) list.push(p);
    else panels.set(key, [p]);
  }
  const html_ = [...panels].sort(([a], [b]) => a.localeCompare(b)).map(([title, pts]) => renderRateLimitPanel(title, pts));
  return `<div class="charts" id="rate-limit-timeline">${html_.join('\n')}</div>
<div class="legend"><span><i style="background:#1a7f37"></i>admitted</span><span><i style="background:#cf222e;border-radius:0;width:9px;height:9px;transform:rotate(45deg)"></i>refused (429)</span><span><i class="line" style="background:#0969da"></i>limit per window</span></div>`;
}
