import { LATENCY_OUTCOMES, type LatencyOutcome, type LoadResult } from '../../results/load-result.js';
import { LatencyHistogram } from '../measure/latency-histogram.js';

/*
 * How much of a change the samples alone explain. Each metric of each run
 * gets a 95% interval from its own sample counts; a change is beyond noise
 * only when the two intervals do not overlap, which is stricter than a 95%
 * test of the difference (two separate 95% intervals that do not touch mean
 * a difference at about the 99.5% level).
 *
 * A load's latencies are not independent draws: a stall of the machine, a
 * collection or a burst of other traffic slows every answer of the seconds
 * it lasts, so the slow answers come in clusters of time. A quantile's
 * interval taken as if each answer were independent is then far too narrow
 * (two back-to-back loads of one unchanged service read p99 30.8 and 39.5 ms
 * with intervals 30.6–31.6 and 36.4–42.2 ms), and every such stall reads as
 * a regression. Each second of the run is therefore taken as one cluster of
 * samples: the design effect of the quantile (how much the clustering
 * inflates the variance of the share of answers above it) is measured on
 * the run's per-second histograms and widens the order-statistics interval
 * by its square root (`quantileDesignEffect`).
 */

/** An interval a metric's true value lies in, given the samples. */
export interface Interval {
  lo: number;
  hi: number;
}

/** Standard normal quantile of a two-sided 95% interval. */
const Z95 = 1.96;

/** A quantile's interval from its histogram: order statistics bracketing n·q, widened to the edges of their HDR buckets (see `quantileIntervalMs`). */
export function quantileInterval(encoded: string | undefined, q: number, designEffect = 1): Interval | undefined {
  return decodeHistogram(encoded)?.quantileIntervalMs(q, Z95 * Math.sqrt(Math.max(1, designEffect)));
}

/** Longest per-second series whose clustering is measured: a day. */
const MAX_SERIES_SECONDS = 86_400;

/** Per load, the run's per-second histograms (every answer of the second), decoded once; null when the series has none. */
const seriesOf = new WeakMap<LoadResult, { hist: LatencyHistogram; second: LoadResult['series'][number] }[] | null>();
/** Per load and quantile, the intra-second correlation of "slower than the run's quantile" (undefined: not measurable). */
const correlationOf = new WeakMap<LoadResult, Map<number, number | undefined>>();

function decodedSeries(load: LoadResult): { hist: LatencyHistogram; second: LoadResult['series'][number] }[] | null {
  let found = seriesOf.get(load);
  if (found !== undefined) return found;
  // A series longer than a day of seconds is no load this harness wrote: its clustering is not measured (a crafted file is not decoded second by second).
  found = (load.series?.length ?? 0) > MAX_SERIES_SECONDS ? null : decodeSeconds(load);
  seriesOf.set(load, found);
  return found;
}

/** The per-second histograms of the load's own seconds, or null when one of them is missing or does not decode. */
function decodeSeconds(load: LoadResult): { hist: LatencyHistogram; second: LoadResult['series'][number] }[] | null {
  const found: { hist: LatencyHistogram; second: LoadResult['series'][number] }[] = [];
  // The seconds of the load itself: the harness's own reads around it are not the service under load.
  const first = Math.floor(load.startedAt / 1000);
  const last = Math.floor(load.finishedAt / 1000);
  for (const second of load.series ?? []) {
    if (second.second < first || second.second > last) continue;
    // Each second is decoded once here, apart from the shared cache, which a long run's series would flush.
    let hist: LatencyHistogram | undefined;
    try {
      hist = second.histogram ? LatencyHistogram.decode(second.histogram) : undefined;
    } catch {
      hist = undefined;
    }
    if (hist === undefined) return null;
    if (hist.count > 0) found.push({ hist, second });
  }
  return found;
}

/**
 * The intra-class correlation, within a second, of an answer being slower
 * than the run's quantile `q` (every answer of the run): from the
 * between-second variance of the count above it (the seconds as clusters)
 * against the variance independent answers would give, through Kish's
 * design effect 1 + (m − 1)·ρ. Undefined when the run has fewer than 3
 * seconds with answers, or no per-second histograms.
 *
 * Each second's count is set against what its own mix of outcomes predicts:
 * a load past its limit answers fast 429s and slower 2xx, in a share that
 * moves from second to second as windows fill and drain. That movement is no
 * clustering of slow answers (each outcome's quantile is judged on its own),
 * so it is taken out (post-stratified by outcome) and only a second that is
 * slower than its mix, a stall, counts.
 */
function intraSecondCorrelation(load: LoadResult, q: number): number | undefined {
  let perQ = correlationOf.get(load);
  if (perQ === undefined) correlationOf.set(load, (perQ = new Map()));
  if (perQ.has(q)) return perQ.get(q);
  let rho: number | undefined;
  const series = decodedSeries(load);
  const all = decodeHistogram(load.operations.all?.histogram);
  if (series !== null && series.length >= 3 && all !== undefined && all.count > 0) {
    const x = all.percentileMs(q * 100);
    const shareAbove = outcomeSharesAbove(load, x, all.countAboveMs(x) / all.count);
    let n = 0;
    let sizeSquares = 0;
    let spread = 0;
    let independent = 0;
    for (const { hist, second } of series) {
      const m = hist.count;
      // The second's answers by outcome (those with a latency: the histogram's count), and what they predict above x.
      const ok = Math.min(m, second.ok);
      const limited = Math.min(m - ok, second.rateLimited);
      const mix: [number, number][] = [
        [ok, shareAbove['2xx']],
        [limited, shareAbove['429']],
        [m - ok - limited, shareAbove.other],
      ];
      let expected = 0;
      for (const [c, p] of mix) {
        expected += c * p;
        independent += c * p * (1 - p);
      }
      spread += (hist.countAboveMs(x) - expected) ** 2;
      n += m;
      sizeSquares += m * m;
    }
    const k = series.length;
    const meanSize = sizeSquares / n;
    if (independent > 0 && meanSize > 1) {
      const ratio = ((k / (k - 1)) * spread) / independent;
      rho = Math.min(1, Math.max(0, (ratio - 1) / (meanSize - 1)));
    }
  }
  perQ.set(q, rho);
  return rho;
}

/** Each outcome's share of answers slower than `x` over the whole run; every outcome at the run's share when the run keeps no latency by outcome. */
function outcomeSharesAbove(load: LoadResult, x: number, overall: number): Record<LatencyOutcome, number> {
  const shares = { '2xx': overall, '429': overall, other: overall };
  const byOutcome = load.operations.all?.latencyByOutcome;
  if (byOutcome === undefined) return shares;
  for (const outcome of LATENCY_OUTCOMES) {
    const h = decodeHistogram(byOutcome[outcome]?.histogram);
    if (h !== undefined && h.count > 0) shares[outcome] = h.countAboveMs(x) / h.count;
  }
  return shares;
}

/**
 * How much the clustering of slow answers in time inflates the variance of
 * an operation's quantile `q` in one load (1: as independent answers; a
 * load whose stalls last whole seconds reads tens). The correlation within
 * a second is measured on every answer of the run, each second against what
 * its mix of outcomes predicts (`intraSecondCorrelation`); the clusters' sizes are
 * the outcome's answers per second (`ok`, `rateLimited`, the rest for
 * `other`), scaled by the operation's share of them. 1 when the run carries
 * no per-second histograms (a result of an older version) or too few
 * seconds to tell.
 */
export function quantileDesignEffect(load: LoadResult, q: number, op: string, outcome: 'any' | LatencyOutcome, answers: number): number {
  const rho = intraSecondCorrelation(load, q);
  if (rho === undefined || !(answers > 0)) return 1;
  let total = 0;
  let squares = 0;
  for (const { second: s } of decodedSeries(load) ?? []) {
    const c = outcome === 'any' ? s.requests : outcome === '2xx' ? s.ok : outcome === '429' ? s.rateLimited : s.requests - s.ok - s.rateLimited;
    total += c;
    squares += c * c;
  }
  if (!(total > 0)) return 1;
  // The operation's answers per second, taken in proportion to its outcome's.
  const share = op === 'all' ? 1 : Math.min(1, answers / total);
  const meanSize = (share * squares) / total;
  return Math.max(1, 1 + (meanSize - 1) * rho);
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
