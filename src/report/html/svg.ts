/** Small helpers shared by the inline SVG charts. */

/** A linear map from a domain onto a pixel range. */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Round tick values covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 6): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0];
  if (max <= min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/** Time ticks in seconds: steps of whole seconds, or of minutes once the span is long. */
export function timeTicks(maxS: number, count = 6): number[] {
  if (maxS <= 0) return [0];
  const raw = maxS / count;
  const steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  const step = steps.find((s) => s >= raw) ?? 3600 * Math.ceil(raw / 3600);
  const ticks: number[] = [];
  for (let v = 0; v <= maxS + step * 1e-9; v += step) ticks.push(Number(v.toFixed(6)));
  return ticks;
}

/** A time offset label: `0 s`, `45 s`, `2:30`. */
export function formatOffset(s: number): string {
  if (s < 120) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.round(s % 60)).padStart(2, '0')}`;
}

/** A number with at most one decimal, for coordinates. */
export function n(v: number): string {
  return Number.isFinite(v) ? String(Math.round(v * 10) / 10) : '0';
}

/**
 * Labels for a time axis, all in one unit: seconds up to three minutes,
 * minutes beyond (`0 s, 30 s, 60 s` or `0 min, 2 min, 4 min`, never a mix).
 */
export function axisTimeLabel(maxS: number): (s: number) => string {
  if (maxS < 180) return (s) => `${Number.isInteger(s) ? s : Number(s.toFixed(1))} s`;
  return (s) => `${Number((s / 60).toFixed(1))} min`;
}

/**
 * The largest of `floor` and `values`, in one loop: `Math.max(...values)`
 * passes each value as an argument, and a few hundred thousand of them (a
 * week of seconds) overflow the stack.
 */
export function maxOf(floor: number, ...lists: ReadonlyArray<Iterable<number>>): number {
  let max = floor;
  for (const list of lists) for (const v of list) if (v > max) max = v;
  return max;
}

/** The smallest of `values`, in one loop (see {@link maxOf}); Infinity when there is none. */
export function minOf(values: Iterable<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < min) min = v;
  return min;
}
