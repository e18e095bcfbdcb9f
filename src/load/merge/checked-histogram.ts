import { inflateSync } from 'node:zlib';
import { INFLATE_CHUNK_BYTES, LatencyHistogram } from '../measure/latency-histogram.js';
import { MAX_COUNT } from './load-result-schema.js';
import { HarnessError } from '../../errors/harness-error.js';

/** HDR's V2 compressed encoding: a cookie, the length of the deflated payload, then the payload. */
const COMPRESSED_COOKIE = 0x1c849304;
/** Inflated: cookie, payload length, normalising offset, significant digits, lowest and highest trackable value, conversion ratio; then the counts. */
const HEADER_BYTES = 40;
/** Largest inflated histogram accepted: this harness's fullest is about 210 KB (9 bytes for each of its ~23 500 counts). */
const MAX_INFLATED_BYTES = 1024 * 1024;

/** The header fields that fix a histogram's range and precision. */
function rangeOf(inflated: Buffer): string {
  return [inflated.readInt32BE(12), inflated.readBigInt64BE(16), inflated.readBigInt64BE(24)].join('/');
}

function inflate(encoded: string): Buffer {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE)
    throw new HarnessError('E_FILE_UNREADABLE', 'it is not an HDR compressed histogram');
  const inflated = inflateSync(bytes.subarray(8, 8 + bytes.readInt32BE(4)), { maxOutputLength: MAX_INFLATED_BYTES, chunkSize: INFLATE_CHUNK_BYTES });
  if (inflated.length < HEADER_BYTES) throw new HarnessError('E_FILE_UNREADABLE', 'its header is cut short');
  return inflated;
}

/** The range and precision of the histograms this harness writes (1 µs to one hour, 3 digits). */
const OWN_RANGE = rangeOf(inflate(new LatencyHistogram().encode()));

/**
 * Decodes a histogram read from a file, refusing (with an Error saying why)
 * one this harness could not have written: not HDR, inflating past 1 MiB, a
 * range or precision other than its own (a huge-range histogram would be
 * folded into the harness's range silently, its percentiles wrong), or values
 * beyond that range.
 */
export function decodeCheckedHistogram(encoded: string): LatencyHistogram {
  if (encoded === '') return new LatencyHistogram();
  let inflated: Buffer;
  try {
    inflated = inflate(encoded);
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `it is not a histogram of this harness (${(err as Error).message.replace(/\.$/, '')})`);
  }
  if (rangeOf(inflated) !== OWN_RANGE)
    throw new HarnessError('E_FILE_UNREADABLE', `its range or precision (${rangeOf(inflated)}: digits/lowest/highest) is not this harness's (${OWN_RANGE})`);
  let hist: LatencyHistogram;
  try {
    hist = LatencyHistogram.decode(encoded, inflated);
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `it cannot be decoded (${(err as Error).message})`);
  }
  if (!Number.isSafeInteger(hist.count) || hist.count < 0 || hist.count > MAX_COUNT)
    throw new HarnessError('E_FILE_UNREADABLE', `it holds ${hist.count} values, more than ${MAX_COUNT}`);
  return hist;
}
