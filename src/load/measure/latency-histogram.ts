import { inflateSync } from 'node:zlib';
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
  private built: hdr.Histogram | undefined;
  /** A decoded histogram's counts, read straight from its encoding, until it is changed or merged: see {@link SparseCounts}. */
  private sparse: SparseCounts | undefined;
  /** The encoding a decoded histogram was read from, to build it in full only when it is changed, merged or encoded. */
  private encoded: string | undefined;

  /**
   * @param counts `packed` (the default) keeps a histogram small, for the
   * many decoded or merged ones; `fast` (32-bit counts, ~95 KB) records about
   * 6× faster, for the few a recorder fills on the hot path and hands over
   * as {@link BucketCounts}; `wide` (64-bit counts, ~190 KB) adds up counts
   * without a scan of every bucket on either side, for the few sums a
   * recorder's figures are computed in.
   */
  constructor(private readonly counts: 'packed' | 'fast' | 'wide' = 'packed') {}

  /** The HDR histogram itself, built on first use; a decoded one is then filled from its encoding (and its sparse counts dropped). */
  private get h(): hdr.Histogram {
    if (this.built) return this.built;
    this.built = newHdr(this.counts);
    if (this.encoded) this.built.add(hdr.decodeFromCompressedBase64(this.encoded, 'packed', false));
    this.encoded = undefined;
    this.sparse = undefined;
    return this.built;
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

  /**
   * Hands over its counts as {@link BucketCounts} and empties itself
   * (undefined when it holds none): a scan of the buckets up to its largest
   * value, cheap on a `fast` histogram, slow on a packed one.
   */
  takeCounts(): BucketCounts | undefined {
    const h = this.h as InternalHdr;
    const total = h.totalCount;
    if (total === 0) return undefined;
    const end = h.countsArrayIndex(h.maxValue) + 1;
    let n = 0;
    for (let i = 0; i < end; i++) if (h.getCountAtIndex(i) !== 0) n++;
    const index = new Uint16Array(n);
    const counts = new Uint32Array(n);
    for (let i = 0, k = 0; i < end; i++) {
      const c = h.getCountAtIndex(i);
      if (c === 0) continue;
      if (c > 0xffffffff) throw new Error(`a bucket of ${c} values is past the 32 bits of BucketCounts.counts (takeCounts is for fast histograms)`);
      index[k] = i;
      counts[k++] = c;
    }
    const taken: BucketCounts = { index, counts, total, minUs: h.minNonZeroValue, maxUs: h.maxValue };
    h.reset();
    return taken;
  }

  /** Adds counts handed over by {@link takeCounts}: as {@link add} would add the histogram they came from, at the cost of their buckets alone. */
  addCounts(c: BucketCounts): void {
    const h = this.h as InternalHdr;
    const { index, counts } = c;
    for (let k = 0; k < index.length; k++) h.addToCountAtIndex(index[k]!, counts[k]!);
    h.setTotalCount(h.totalCount + c.total);
    // HDR's own `add`: the exact extremes carried over, not the edges of their buckets.
    h.updatedMaxValue(Math.max(h.maxValue, c.maxUs));
    h.updateMinNonZeroValue(Math.min(h.minNonZeroValue, c.minUs));
  }

  get count(): number {
    return this.sparse ? this.sparse.total : this.h.totalCount;
  }

  /** Largest value, in µs, as HDR reports it (the top of its bucket). */
  private get maxUs(): number {
    const s = this.sparse;
    if (!s) return this.h.maxValue;
    return s.total === 0 ? 0 : TEMPLATE.highestEquivalentValue(TEMPLATE.valueFromIndex(s.index[s.index.length - 1]!));
  }

  /** Smallest value above 0, in µs, as HDR reports it (the bottom of its bucket). */
  private get minNonZeroUs(): number {
    const s = this.sparse;
    if (!s) return this.h.minNonZeroValue;
    const i = s.index[0] === 0 ? 1 : 0;
    return i < s.index.length ? TEMPLATE.valueFromIndex(s.index[i]!) : Number.MAX_SAFE_INTEGER;
  }

  /** HDR's value at a percentile, in µs: from the sparse counts by binary search when there are some, else HDR's scan of every bucket. */
  private valueAtPercentileUs(p: number): number {
    const s = this.sparse;
    if (!s) return this.h.getValueAtPercentile(p);
    // HDR's own arithmetic (JsHistogram.getValueAtPercentile): the rank rounded up, guarded by one ulp.
    const fp = (Math.min(p, 100) / 100) * s.total;
    const rank = Math.max(Math.ceil(fp - (fp === 0 ? 0 : 2 ** (Math.floor(Math.log2(fp)) - 52))), 1);
    let lo = 0;
    let hi = s.cumulative.length - 1;
    if (hi < 0 || s.cumulative[hi]! < rank) return 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.cumulative[mid]! >= rank) hi = mid;
      else lo = mid + 1;
    }
    const v = TEMPLATE.valueFromIndex(s.index[lo]!);
    return p === 0 ? TEMPLATE.lowestEquivalentValue(v) : TEMPLATE.highestEquivalentValue(v);
  }

  /**
   * HDR's mean, in µs: each non-zero bucket's count at the bucket's median
   * value, summed in index order as HDR's `mean` sums them (the same
   * figure), reading only the buckets up to the largest value where HDR's
   * iterator walks all 23 000 through objects (3 ms a histogram, most of a
   * load's figures).
   */
  private get meanUs(): number {
    const s = this.sparse;
    let sum = 0;
    if (s) {
      let before = 0;
      for (let k = 0; k < s.index.length; k++) {
        sum += medianOfIndex(s.index[k]!) * (s.cumulative[k]! - before);
        before = s.cumulative[k]!;
      }
      return s.total === 0 ? 0 : sum / s.total;
    }
    const h = this.h as InternalHdr;
    if (h.totalCount === 0) return 0;
    const end = h.countsArrayIndex(h.maxValue) + 1;
    for (let i = 0; i < end; i++) {
      const c = h.getCountAtIndex(i);
      if (c !== 0) sum += medianOfIndex(i) * c;
    }
    return sum / h.totalCount;
  }

  /** Value at a percentile (0–100), in ms. */
  percentileMs(p: number): number {
    return this.count === 0 ? 0 : this.valueAtPercentileUs(p) / 1000;
  }

  summary(): LatencySummary {
    const n = this.count;
    const max = n === 0 ? 0 : this.maxUs / 1000;
    // A percentile is the top of its HDR bucket, which may lie above the largest value recorded: no percentile reads above the max.
    const at = (p: number) => Math.min(this.percentileMs(p), max);
    return {
      count: n,
      min: n === 0 ? 0 : this.minNonZeroUs / 1000,
      mean: n === 0 ? 0 : this.meanUs / 1000,
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
    if (this.count === 0) return [];
    const points: Spectrum = [];
    for (let k = 1; k <= 17; k++) {
      const p = 100 * (1 - 1 / 2 ** k);
      points.push({ percentile: p, ms: this.percentileMs(p) });
    }
    points.push({ percentile: 100, ms: this.maxUs / 1000 });
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
    const count = this.count;
    if (count === 0) return undefined;
    const sd = Math.sqrt(count * q * (1 - q));
    const loRank = Math.floor(count * q - z * sd);
    const hiRank = Math.ceil(count * q + z * sd);
    const valueAtRank = (rank: number): number => this.valueAtPercentileUs((100 * rank) / count);
    const lo = loRank < 1 ? this.minNonZeroUs : valueAtRank(loRank);
    const loEdge = TEMPLATE.lowestEquivalentValue(lo);
    if (hiRank > count) return { lo: loEdge / 1000, hi: Number.POSITIVE_INFINITY };
    const hiEdge = TEMPLATE.highestEquivalentValue(valueAtRank(hiRank));
    return { lo: loEdge / 1000, hi: Math.min(hiEdge, this.maxUs) / 1000 };
  }

  /** Values recorded in HDR buckets whose top lies above `ms` (the values a quantile read as `ms` has above it). */
  countAboveMs(ms: number): number {
    const us = ms * 1000;
    const s = this.sparse;
    if (s) {
      let below = 0;
      for (let k = 0; k < s.index.length && TEMPLATE.highestEquivalentValue(TEMPLATE.valueFromIndex(s.index[k]!)) <= us; k++) below = s.cumulative[k]!;
      return s.total - below;
    }
    const h = this.h as InternalHdr;
    if (h.totalCount === 0) return 0;
    const end = h.countsArrayIndex(h.maxValue) + 1;
    let above = 0;
    for (let i = 0; i < end; i++) if (TEMPLATE.highestEquivalentValue(TEMPLATE.valueFromIndex(i)) > us) above += h.getCountAtIndex(i);
    return above;
  }

  /** HDR compressed base64 encoding. */
  encode(): string {
    return hdr.encodeIntoCompressedBase64(this.h);
  }

  /**
   * Decodes an encoding made by `encode()`. Its counts are read straight from
   * the encoding's runs of buckets, so that reading its count, percentiles and
   * intervals costs the buckets it holds, not the 23 000 of the whole range
   * (a comparison of 3 000 operations reads 24 000 histograms); it is built in
   * full only when it is changed, merged or encoded. An encoding of another
   * range or precision is built in full at once, folded into this range as HDR folds it.
   *
   * @param inflated the encoding's deflated payload, already inflated by a
   * caller that read its header (`decodeCheckedHistogram`): read as it is, not inflated again.
   */
  static decode(encoded: string, inflated?: Buffer): LatencyHistogram {
    const out = new LatencyHistogram();
    if (!encoded) return out;
    const sparse = sparseCounts(inflated ?? inflateEncoding(encoded));
    if (sparse) {
      out.sparse = sparse;
      out.encoded = encoded;
    } else out.h.add(hdr.decodeFromCompressedBase64(encoded, 'packed', false));
    return out;
  }
}

function newHdr(counts: 'packed' | 'fast' | 'wide'): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: counts === 'fast' ? 32 : counts === 'wide' ? 64 : 'packed',
    useWebAssembly: false,
  });
}

/**
 * The non-zero buckets of a histogram, in index order, with its exact
 * smallest and largest values (µs, as HDR keeps them): what a recorder keeps
 * of each operation's second (see {@link LatencyHistogram.takeCounts}). Adding
 * one costs its buckets (tens to hundreds), where adding a packed HDR
 * histogram scans all 23 000 at about a microsecond each.
 */
export interface BucketCounts {
  readonly index: Uint16Array;
  readonly counts: Uint32Array;
  readonly total: number;
  readonly minUs: number;
  readonly maxUs: number;
}

/** The parts of hdr-histogram-js's JsHistogram that its typings leave out, which {@link BucketCounts} are read and added with (its `add` uses the same). */
interface InternalHdr extends hdr.Histogram {
  countsArrayIndex(value: number): number;
  getCountAtIndex(index: number): number;
  addToCountAtIndex(index: number, value: number): void;
  setTotalCount(value: number): void;
  updatedMaxValue(value: number): void;
  updateMinNonZeroValue(value: number): void;
}

/** The bucket arithmetic of this harness's range (pure functions of it, which hdr-histogram-js keeps on the histogram). */
const TEMPLATE = newHdr('packed') as hdr.Histogram & {
  valueFromIndex(index: number): number;
  lowestEquivalentValue(value: number): number;
  highestEquivalentValue(value: number): number;
  medianEquivalentValue(value: number): number;
  countsArrayLength: number;
};
// A bucket index fits the 16 bits of BucketCounts.index.
if (TEMPLATE.countsArrayLength > 0x10000)
  throw new Error(`a histogram of this range has ${TEMPLATE.countsArrayLength} buckets, more than BucketCounts can index`);

/** The median value of a bucket, as HDR's `mean` weighs it (the median of the highest value its iterator reports for the bucket). */
function medianOfIndex(index: number): number {
  return TEMPLATE.medianEquivalentValue(TEMPLATE.highestEquivalentValue(TEMPLATE.valueFromIndex(index)));
}

/** The non-zero buckets of a histogram in index order, with the running total of their counts. */
interface SparseCounts {
  index: number[];
  cumulative: number[];
  total: number;
}

/** HDR's V2 encodings: the compressed one (base64 of cookie, length, deflated payload) and the plain one inside it. */
const COMPRESSED_COOKIE = 0x1c849304;
const PLAIN_COOKIE = 0x1c849303;
const HEADER_BYTES = 40;
/** Largest inflated encoding read: a full histogram of this range is about 210 KB. */
const MAX_INFLATED_BYTES = 4 * 1024 * 1024;

/**
 * Output chunk of zlib when a histogram is inflated. Most inflate to tens of
 * bytes or a few KB; at zlib's default of 16 KB each had a buffer of its own,
 * held until the next collection (17 to 27 MB more peak RSS for a comparison
 * of 3 000 operations, which inflates 48 000). Below 4 KB it comes from
 * Node's shared pool, and a larger histogram takes a few chunks.
 */
export const INFLATE_CHUNK_BYTES = 2048;

/** The inflated payload of an HDR V2 compressed encoding (its plain encoding); throws on an encoding HDR would refuse too. */
function inflateEncoding(encoded: string): Buffer {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE) throw new Error('Encoding not supported, only V2 is supported');
  return inflateSync(bytes.subarray(8, 8 + bytes.readInt32BE(4)), { maxOutputLength: MAX_INFLATED_BYTES, chunkSize: INFLATE_CHUNK_BYTES });
}

/**
 * The counts of an HDR V2 histogram of this harness's range and precision,
 * from its plain (inflated) encoding, read as HDR reads them
 * (`fillCountsArrayFromSourceBuffer`: each ZigZag LEB128 number a count, a
 * negative one a run of empty buckets); undefined for an encoding of another
 * range, which the caller decodes in full. Throws on an encoding HDR would refuse too.
 */
function sparseCounts(plain: Buffer): SparseCounts | undefined {
  if (plain.length < HEADER_BYTES || (plain.readInt32BE(0) & ~0xf0) !== PLAIN_COOKIE)
    throw new Error('The buffer does not contain a Histogram (no valid V2 encoding cookie found)');
  const digits = plain.readInt32BE(12);
  const lowest = Number(plain.readBigInt64BE(16));
  const highest = Number(plain.readBigInt64BE(24));
  if (digits !== 3 || lowest !== 1 || highest > HIGHEST_US) return undefined;
  const end = Math.min(plain.length, HEADER_BYTES + plain.readInt32BE(4));
  const index: number[] = [];
  const cumulative: number[] = [];
  let total = 0;
  let at = HEADER_BYTES;
  let bucket = 0;
  while (at < end) {
    let value = 0;
    let scale = 1;
    for (let k = 0; k < 9; k++) {
      const b = plain[at++] ?? 0;
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) break;
      scale *= 128;
    }
    const n = value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    if (n < 0) bucket += -n;
    else {
      if (n > 0) {
        if (bucket >= TEMPLATE.countsArrayLength) return undefined;
        total += n;
        index.push(bucket);
        cumulative.push(total);
      }
      bucket += 1;
    }
  }
  return { index, cumulative, total };
}
