import { html } from '../escape.js';
import { linear, maxOf, n, niceTicks } from './svg.js';

/**
 * What the card of a window over the limit draws, in seconds since the
 * window's start (negative before it), all of it read from the verdict's
 * details: its first window, its limit and its timeline.
 */
interface WindowDrawing {
  /** The drawn span: the window and the margin around it. */
  fromS: number;
  toS: number;
  /** Admitted requests per bin, by the instant they were sent. */
  bins: Array<{ fromS: number; toS: number; admitted: number }>;
  /** The window over the limit, shaded. */
  shade: { fromS: number; toS: number };
  /** Requests the window had admitted at the end of each of its bins, from 0 at its start. */
  running: Array<{ atS: number; count: number }>;
  limit: number;
  windowS: number;
  admittedInWindow: number;
  /** The first request admitted over the limit, where it was sent: the (limit + 1)-th of the window. */
  marker: { atS: number; ref: string; count: number };
  /** The window's start and end, target clock, ms. */
  windowStart: number;
  windowEnd: number;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCounts = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNum);

/** The drawing of a failing window verdict's details; undefined when they hold no window and timeline (a pass, an older report). */
export function windowDrawing(details: Record<string, unknown> | undefined): WindowDrawing | undefined {
  const t = details?.timeline as { from?: unknown; binMs?: unknown; admitted?: unknown; counted?: unknown } | undefined;
  const w = (details?.windows as unknown[] | undefined)?.[0] as
    | { windowStart?: unknown; windowEnd?: unknown; admittedInWindow?: unknown; firstOver?: { ref?: unknown; sentAt?: unknown } }
    | undefined;
  const limit = details?.limit;
  if (!t || !w || !isNum(limit) || !isNum(t.from) || !isNum(t.binMs) || t.binMs <= 0 || !isCounts(t.admitted) || !isCounts(t.counted)) return undefined;
  if (!isNum(w.windowStart) || !isNum(w.windowEnd) || !isNum(w.admittedInWindow) || !isNum(w.firstOver?.sentAt)) return undefined;
  const { windowStart, windowEnd } = w;
  const s = (ms: number): number => (ms - windowStart) / 1000;
  const binS = t.binMs / 1000;
  const fromS = s(t.from);
  const bins = t.admitted.map((admitted, i) => ({ fromS: fromS + i * binS, toS: fromS + (i + 1) * binS, admitted }));
  const running: WindowDrawing['running'] = [{ atS: 0, count: 0 }];
  let count = 0;
  t.counted.forEach((c, i) => {
    const b = bins[i];
    if (!b || b.toS <= 0 || b.fromS >= s(windowEnd)) return;
    count += c;
    running.push({ atS: Math.min(b.toS, s(windowEnd)), count });
  });
  return {
    fromS,
    toS: Math.max(s(windowEnd), fromS + bins.length * binS),
    bins,
    shade: { fromS: 0, toS: s(windowEnd) },
    running,
    limit,
    windowS: s(windowEnd),
    admittedInWindow: w.admittedInWindow,
    marker: { atS: s(w.firstOver.sentAt), ref: typeof w.firstOver.ref === 'string' ? w.firstOver.ref : '', count: limit + 1 },
    windowStart,
    windowEnd,
  };
}

const W = 720;
const H = 250;
const M = { l: 52, r: 60, t: 26, b: 42 };
const C = { bar: '#1a7f37', running: '#24292f', over: '#cf222e', shade: 'rgba(207,34,46,0.09)', grid: '#eaeef2', axis: '#57606a' };

/** `hh:mm:ss.mmm` of a target-clock instant. */
function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

function signedS(v: number): string {
  const r = Number(v.toFixed(1));
  return r > 0 ? `+${r} s` : r < 0 ? `−${-r} s` : '0 s';
}

/**
 * The card's drawing of a window over the limit: the bucket's admitted
 * requests per second (bars, left axis) across the window and a margin, the
 * window shaded, what it had admitted so far (line, right axis) against the
 * limit (dashed), and the first request admitted over the limit marked.
 * Inline SVG, no script; empty when the details hold no window to draw.
 */
export function renderWindowChart(details: Record<string, unknown> | undefined): string {
  const d = windowDrawing(details);
  if (!d) return '';
  const x = linear(d.fromS, d.toS, M.l, W - M.r);
  const bottom = H - M.b;
  const maxBar = maxOf(
    1,
    d.bins.map((b) => b.admitted),
  );
  const yBar = linear(0, maxBar * 1.1, bottom, M.t);
  const maxCount = Math.max(d.limit, d.admittedInWindow) * 1.12;
  const yRun = linear(0, maxCount, bottom, M.t);
  const shade = `<rect class="window-shade" x="${n(x(d.shade.fromS))}" y="${M.t}" width="${n(x(d.shade.toS) - x(d.shade.fromS))}" height="${bottom - M.t}" fill="${C.shade}" stroke="${C.over}" stroke-width="0.6" stroke-dasharray="3 3"/>`;
  const shadeLabel = `<text x="${n(x(d.shade.fromS) + 4)}" y="${M.t - 6}" font-size="10" style="fill:${C.over}">${html(`the ${d.windowS} s window, ${clockTime(d.windowStart)} to ${clockTime(d.windowEnd)}: ${d.admittedInWindow} admitted`)}</text>`;
  const gap = Math.min(1, (x(d.bins[0]?.toS ?? 1) - x(d.bins[0]?.fromS ?? 0)) * 0.15);
  const bars = d.bins
    .filter((b) => b.admitted > 0)
    .map(
      (b) =>
        `<rect x="${n(x(b.fromS) + gap)}" y="${n(yBar(b.admitted))}" width="${n(Math.max(0.5, x(b.toS) - x(b.fromS) - 2 * gap))}" height="${n(bottom - yBar(b.admitted))}" fill="${C.bar}" fill-opacity="0.7"><title>${html(`${signedS(b.fromS)} to ${signedS(b.toS)}: ${b.admitted} admitted`)}</title></rect>`,
    )
    .join('');
  const running = `<polyline class="window-running" fill="none" stroke="${C.running}" stroke-width="1.8" points="${d.running.map((p) => `${n(x(p.atS))},${n(yRun(p.count))}`).join(' ')}"/>`;
  const limitY = yRun(d.limit);
  const limitLine = `<line class="window-limit" x1="${M.l}" x2="${W - M.r}" y1="${n(limitY)}" y2="${n(limitY)}" stroke="${C.over}" stroke-width="1.2" stroke-dasharray="6 4"/><text x="${W - M.r - 4}" y="${n(limitY - 4)}" text-anchor="end" font-size="10" style="fill:${C.over}">${html(`limit ${d.limit}`)}</text>`;
  const mx = x(d.marker.atS);
  const my = yRun(d.marker.count);
  // The label goes left of the mark when the mark sits in the right half.
  const right = mx < (M.l + W - M.r) / 2;
  const marker = `<line x1="${n(mx)}" x2="${n(mx)}" y1="${M.t}" y2="${bottom}" stroke="${C.over}" stroke-width="1" stroke-dasharray="2 2"/><circle class="window-first-over" cx="${n(mx)}" cy="${n(my)}" r="4.5" fill="${C.over}" stroke="#fff" stroke-width="1"><title>${html(`${d.marker.ref} sent at ${clockTime(d.windowStart + d.marker.atS * 1000)}, ${signedS(d.marker.atS)} into the window`)}</title></circle><text x="${n(mx + (right ? 8 : -8))}" y="${n(my + 14)}" text-anchor="${right ? 'start' : 'end'}" font-size="11" font-weight="600" stroke="#fff" stroke-width="3" paint-order="stroke" style="fill:${C.over}">${html(`${d.marker.ref} first over the limit (${signedS(d.marker.atS)})`)}</text>`;
  const leftTicks = niceTicks(0, maxBar * 1.1, 4)
    .map(
      (v) =>
        `<line x1="${M.l}" x2="${W - M.r}" y1="${n(yBar(v))}" y2="${n(yBar(v))}" stroke="${C.grid}"/><text x="${M.l - 6}" y="${n(yBar(v) + 4)}" text-anchor="end" font-size="10" style="fill:${C.bar}">${v}</text>`,
    )
    .join('');
  const rightTicks = niceTicks(0, maxCount, 4)
    .map((v) => `<text x="${W - M.r + 6}" y="${n(yRun(v) + 4)}" font-size="10" style="fill:${C.running}">${v}</text>`)
    .join('');
  const xTicks = niceTicks(d.fromS, d.toS, 8)
    .map(
      (v) =>
        `<line x1="${n(x(v))}" x2="${n(x(v))}" y1="${bottom}" y2="${bottom + 4}" stroke="${C.axis}"/><text x="${n(x(v))}" y="${bottom + 15}" text-anchor="middle" font-size="10">${html(signedS(v))}</text>`,
    )
    .join('');
  const axes = `<line x1="${M.l}" x2="${M.l}" y1="${M.t}" y2="${bottom}" stroke="${C.axis}"/><line x1="${W - M.r}" x2="${W - M.r}" y1="${M.t}" y2="${bottom}" stroke="${C.axis}"/><line x1="${M.l}" x2="${W - M.r}" y1="${bottom}" y2="${bottom}" stroke="${C.axis}"/>`;
  const titles = `<text transform="translate(12 ${(M.t + bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="10" style="fill:${C.bar}">admitted per second</text><text transform="translate(${W - 10} ${(M.t + bottom) / 2}) rotate(90)" text-anchor="middle" font-size="10" style="fill:${C.running}">admitted in the window so far</text><text x="${(M.l + W - M.r) / 2}" y="${H - 4}" text-anchor="middle" font-size="10">${html(`seconds since the window's start (${clockTime(d.windowStart)}, target clock)`)}</text>`;
  const label = `Admitted requests per second around the ${d.windowS} s window that admitted ${d.admittedInWindow} over a limit of ${d.limit}`;
  const svg = `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${html(label)}" xmlns="http://www.w3.org/2000/svg">${shade}${leftTicks}${bars}${axes}${limitLine}${running}${marker}${shadeLabel}${rightTicks}${xTicks}${titles}</svg>`;
  const legend = [
    `<span><i style="background:${C.bar};border-radius:0"></i>admitted per second</span>`,
    `<span><i class="line" style="background:${C.running}"></i>admitted in the window</span>`,
    `<span><i class="line" style="background:repeating-linear-gradient(90deg,${C.over} 0 4px,transparent 4px 7px)"></i>limit ${d.limit}</span>`,
    `<span><i style="background:${C.shade};border:1px dashed ${C.over};border-radius:0"></i>window over the limit</span>`,
    `<span><i style="background:${C.over}"></i>first over the limit</span>`,
  ].join('');
  return `<figure class="chart window-chart">${svg}<figcaption class="legend">${legend}</figcaption></figure>`;
}
