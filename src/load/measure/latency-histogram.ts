import * as hdr from 'hdr-histogram-js';
import type { LatencySummary, Spectrum } from '../../results/load-result.js';

/** Highest latency tracked: one hour, in microseconds. */
const HIGHEST_US = 3_600_000_000;

/**
 * An HDR histogram of latencies recorded in microseconds, 3 significant
 * digits. Serialises to HDR's compressed base64 so that results of several
 * load processes merge exactly (histograms added, never percentiles averaged).
 */
export class LatencyHistogram {
  private readonly h: hdr.Histogram;

  /**
   * @param counts `packed` (the default) keeps a histogram small, for the
   * many a long run holds (one per operation, outcome and second); `fast`
   * (32-bit counts, ~95 KB) records about 6× faster, for the few a recorder
   * fills on the hot path and folds into packed ones.
   */
  constructor(counts: 'packed' | 'fast' = 'packed') {
    this.h = hdr.build({
      lowestDiscernibleValue: 1,
      highestTrackableValue: HIGHEST_US,
      numberOfSignificantValueDigits: 3,
      bitBucketSize: counts === 'fast' ? 32 : 'packed',
      useWebAssembly: false,
    });
  }

  /** Empties the histogram (a fast one is reused second after second). */
  reset(): void {
    this.h.reset();
  }

  /** Records one latency in milliseconds (clamped into the trackable range). */
  recordMs(ms: number): void {
    const us = Math.min(HIGHEST_US, Math.max(1, Math.round(ms * 1000)));
    this.h.recordValue(us);
  }

  /** Adds every value of `other` into this histogram. */
  add(other: LatencyHistogram): void {
    this.h.add(other.h);
  }

  get count(): number {
    return this.h.totalCount;
  }

  /** Value at a percentile (0–100), in ms. */
  percentileMs(p: number): number {
    return this.h.totalCount === 0 ? 0 : this.h.getValueAtPercentile(p) / 1000;
  }

  summary(): LatencySummary {
    const n = this.h.totalCount;
    const max = n === 0 ? 0 : this.h.maxValue / 1000;
    // A percentile is the top of its HDR bucket, which may lie above the largest value recorded: no percentile reads above the max.
    const at = (p: number) => Math.min(this.percentileMs(p), max);
    return {
      count: n,
      min: n === 0 ? 0 : this.h.minNonZeroValue / 1000,
      mean: n === 0 ? 0 : this.h.mean / 1000,
      p50: at(50),
      p90: at(90),
      p95: at(95),
      p99: at(99),
      p99_9: at(99.9),
      max,
    };
  }

  /** Percentile spectrum at log-spaced points (50, 75, 87.5, … up to 99.999 and 100). */
  spectrum(): Spectrum {
    if (this.h.totalCount === 0) return [];
    const points: Spectrum = [];
    for (let k = 1; k <= 17; k++) {
      const p = 100 * (1 - 1 / 2 ** k);
      points.push({ percentile: p, ms: this.percentileMs(p) });
    }
    points.push({ percentile: 100, ms: this.h.maxValue / 1000 });
    return points;
  }

  /**
   * A distribution-free confidence interval of the quantile `q` (0–1), in ms:
   * the values at the order statistics whose ranks bracket `n·q` by `z`
   * binomial standard deviations (normal approximation), widened to the edges
   * of their HDR buckets (3 significant digits). `hi` is Infinity when the
   * upper rank lies past the sample (too few values to bound a high
   * quantile); undefined for an empty histogram.
   */
  quantileIntervalMs(q: number, z = 1.96): { lo: number; hi: number } | undefined {
    const count = this.h.totalCount;
    if (count === 0) return undefined;
    const sd = Math.sqrt(count * q * (1 - q));
    const loRank = Math.floor(count * q - z * sd);
    const hiRank = Math.ceil(count * q + z * sd);
    const eq = this.h as unknown as { lowestEquivalentValue?(v: number): number; highestEquivalentValue?(v: number): number };
    const valueAtRank = (rank: number): number => this.h.getValueAtPercentile((100 * rank) / count);
    const lo = loRank < 1 ? this.h.minNonZeroValue : valueAtRank(loRank);
    const loEdge = eq.lowestEquivalentValue ? eq.lowestEquivalentValue(lo) : lo * 0.999;
    if (hiRank > count) return { lo: loEdge / 1000, hi: Number.POSITIVE_INFINITY };
    const hi = valueAtRank(hiRank);
    const hiEdge = eq.highestEquivalentValue ? eq.highestEquivalentValue(hi) : hi * 1.001;
    return { lo: loEdge / 1000, hi: Math.min(hiEdge, this.h.maxValue) / 1000 };
  }

  /** HDR compressed base64 encoding. */
  encode(): string {
    return hdr.encodeIntoCompressedBase64(this.h);
  }

  /** Decodes an encoding made by `encode()`. */
  static decode(encoded: string): LatencyHistogram {
    const out = new LatencyHistogram();
    if (encoded) out.h.add(hdr.decodeFromCompressedBase64(encoded, 'packed', false));
    return out;
  }
}
