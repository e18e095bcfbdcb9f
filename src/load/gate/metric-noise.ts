import { LatencyHistogram } from '../measure/latency-histogram.js';

/*
 * How much of a change the samples alone explain. Each metric of each run
 * gets a 95% interval from its own sample counts; a change is beyond noise
 * only when the two intervals do not overlap, which is stricter than a 95%
 * test of the difference (two separate 95% intervals that do not touch mean
 * a difference at about the 99.5% level).
 */

/** An interval a metric's true value lies in, given the samples. */
export interface Interval {
  lo: number;
  hi: number;
}

/** Standard normal quantile of a two-sided 95% interval. */
const Z95 = 1.96;

/** A quantile's interval from its histogram: order statistics bracketing n·q, widened to the edges of their HDR buckets (see `quantileIntervalMs`). */
export function quantileInterval(encoded: string | undefined, q: number): Interval | undefined {
  return decodeHistogram(encoded)?.quantileIntervalMs(q, Z95);
}

/** A stored histogram, or undefined when there is none or it does not decode (a hand-edited or truncated report): its noise is then unknown. */
export function decodeHistogram(encoded: string | undefined): LatencyHistogram | undefined {
  if (!encoded) return undefined;
  // Each histogram is read for several percentiles and the spectrum; decoding one takes milliseconds.
  if (decoded.has(encoded)) return decoded.get(encoded);
  let h: LatencyHistogram | undefined;
  try {
    h = LatencyHistogram.decode(encoded);
  } catch {
    h = undefined;
  }
  if (decoded.size >= DECODED_KEPT) decoded.delete(decoded.keys().next().value!);
  decoded.set(encoded, h);
  return h;
}

/** Decoded histograms kept: a comparison reads each of its (operation × outcome × run) histograms several times. */
const DECODED_KEPT = 256;
const decoded = new Map<string, LatencyHistogram | undefined>();

/** Wilson score interval of a proportion `hits / n` (a rate of errors or 429s); exact enough at 0 and near 1, where the plain normal one is not. */
export function proportionInterval(hits: number, n: number): Interval | undefined {
  if (!(n > 0)) return undefined;
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/** Interval of a throughput `count / seconds`, the count taken as Poisson (standard deviation √count). */
export function rateInterval(count: number, seconds: number): Interval | undefined {
  if (!(seconds > 0)) return undefined;
  const half = Z95 * Math.sqrt(Math.max(count, 1));
  return { lo: Math.max(0, count - half) / seconds, hi: (count + half) / seconds };
}

/** True when the intervals are both known and do not overlap. */
export function apart(a: Interval | undefined, b: Interval | undefined): boolean {
  return a !== undefined && b !== undefined && (a.hi < b.lo || b.hi < a.lo);
}
