import type { WebhookPoint } from '../../results/model.js';
import { html } from '../escape.js';
import { statusColour } from './palette.js';
import { axisTimeLabel, formatOffset, linear, maxOf, minOf, n, timeTicks } from './svg.js';

const W = 1200;
const ROW = 34;
const M = { l: 200, r: 56, t: 18, b: 40 };
/** Room a status label needs after its mark (offset 14, three digits at 10px, then the next mark's radius of 10). */
const STATUS_ROOM = 44;

/** The webhook attempt timeline: one row per event, one mark per attempt at its arrival, coloured by the status the receiver answered. */
export function renderWebhookTimeline(points: readonly WebhookPoint[]): string {
  if (points.length === 0) return '<p class="muted">No webhook deliveries were recorded in this run.</p>';
  const byEvent = new Map<string, WebhookPoint[]>();
  for (const p of points) {
    const key = `${p.scheme}\u0000${p.eventId}`;
    const list = byEvent.get(key);
    if (list) list.push(p);
    else byEvent.set(key, [p]);
  }
  const rows = [...byEvent.values()].map((list) => list.sort((a, b) => a.at - b.at || a.attempt - b.attempt)).sort((a, b) => (a[0]?.at ?? 0) - (b[0]?.at ?? 0));
  const t0 = minOf(points.map((p) => p.at));
  const maxS = maxOf(
    1,
    points.map((p) => (p.at - t0) / 1000),
  );
  const H = M.t + rows.length * ROW + M.b;
  // A little room before zero so the first mark does not sit on the row labels.
  const x = linear(-maxS * 0.015, maxS, M.l, W - M.r);
  const axisY = H - M.b + 6;
  const label = axisTimeLabel(maxS);
  const ticks = timeTicks(maxS, 8)
    .map(
      (v) =>
        `<line x1="${n(x(v))}" x2="${n(x(v))}" y1="${M.t - 6}" y2="${axisY}" stroke="#eaeef2"/><text x="${n(x(v))}" y="${axisY + 14}" text-anchor="middle">${label(v)}</text>`,
    )
    .join('');
  const body = rows.map((list, i) => {
    const cy = M.t + i * ROW + ROW / 2;
    const first = list[0];
    const label = first ? first.eventId : '';
    const scheme = first ? first.scheme : '';
    const xs = list.map((p) => x((p.at - t0) / 1000));
    const link =
      xs.length > 1 ? `<line x1="${n(xs[0] ?? 0)}" x2="${n(xs[xs.length - 1] ?? 0)}" y1="${n(cy)}" y2="${n(cy)}" stroke="#afb8c1" stroke-width="2"/>` : '';
    const marks = list
      .map((p, j) => {
        const cx = xs[j] ?? 0;
        // Too close to the next attempt, its mark would cover the label: the colour and the tooltip still give the status.
        const status =
          (xs[j + 1] ?? Number.POSITIVE_INFINITY) - cx >= STATUS_ROOM
            ? `<text x="${n(cx + 14)}" y="${n(cy + 4)}" style="font-size:10px">${html(p.status)}</text>`
            : '';
        const tip = `${p.eventId} attempt ${p.attempt} at +${formatOffset(Number(((p.at - t0) / 1000).toFixed(2)))}: HTTP ${p.status}${p.check ? ` (${p.check})` : ''}`;
        return (
          `<g><title>${html(tip)}</title><circle cx="${n(cx)}" cy="${n(cy)}" r="10" fill="${statusColour(p.status)}"/>` +
          `<text x="${n(cx)}" y="${n(cy + 4)}" text-anchor="middle" style="fill:#fff;font-weight:700">${html(p.attempt)}</text>${status}</g>`
        );
      })
      .join('');
    return (
      `<g class="webhook-row">${i % 2 === 0 ? `<rect x="0" y="${n(cy - ROW / 2)}" width="${W}" height="${ROW}" fill="#f6f8fa"/>` : ''}` +
      `<text x="10" y="${n(cy + 4)}" style="fill:#1f2328;font-family:ui-monospace,Menlo,Consolas,monospace">${html(truncate(label, 22))}</text>` +
      `<text x="${M.l - 12}" y="${n(cy + 4)}" text-anchor="end" style="font-size:10px">${html(scheme)}</text>${link}${marks}</g>`
    );
  });
  return `<div class="panel chart" id="webhook-timeline">
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Webhook attempt timeline">
${ticks}
${body.join('\n')}
<text x="${(M.l + W - M.r) / 2}" y="${H - 4}" text-anchor="middle">time since first delivery</text>
</svg>
<div class="legend"><span><i style="background:#1a7f37"></i>2xx accepted</span><span><i style="background:#b35900"></i>4xx refused</span><span><i style="background:#cf222e"></i>5xx failed</span><span><i style="background:#6e7781"></i>no answer</span><span>number = attempt</span></div>
</div>`;
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
