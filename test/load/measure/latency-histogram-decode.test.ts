import fc from 'fast-check';
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../../src/load/measure/latency-histogram.js';

/** The histogram HDR itself decodes from `encoded`: every bucket read, as LatencyHistogram.decode did before it read the counts sparsely. */
function fullyDecoded(encoded: string): LatencyHistogram {
  const h = new LatencyHistogram();
  h.recordMs(1);
  h.reset();
  (h as unknown as { h: hdr.Histogram }).h.add(hdr.decodeFromCompressedBase64(encoded, 'packed', false));
  return h;
}

const latencies = fc.array(fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 4_000_000, noNaN: true })), {
  minLength: 0,
  maxLength: 300,
});

describe('a decoded histogram read from its sparse counts', () => {
  it('gives the count, summary, spectrum and intervals HDR gives after reading every bucket', () => {
    fc.assert(
      fc.property(latencies, fc.double({ min: 0.001, max: 0.999, noNaN: true }), (values, q) => {
        const h = new LatencyHistogram();
        for (const v of values) h.recordMs(v);
        const encoded = h.encode();
        const sparse = LatencyHistogram.decode(encoded);
        const full = fullyDecoded(encoded);
        expect(sparse.count).toBe(full.count);
        expect(sparse.spectrum()).toEqual(full.spectrum());
        expect(sparse.quantileIntervalMs(q)).toEqual(full.quantileIntervalMs(q));
        for (const p of [0, 0.1, 50, 90, 99.9, 100]) expect(sparse.percentileMs(p)).toBe(full.percentileMs(p));
        expect(sparse.summary()).toEqual(full.summary());
      }),
      { numRuns: 60 },
    );
  });

  it('is built in full when it is added to or encoded, with the same figures', () => {
    const h = new LatencyHistogram();
    for (const v of [1, 2, 3, 400, 5000]) h.recordMs(v);
    const d = LatencyHistogram.decode(h.encode());
    const other = LatencyHistogram.decode(h.encode());
    d.add(other);
    expect(d.count).toBe(10);
    expect(LatencyHistogram.decode(d.encode()).summary()).toEqual(d.summary());
  });
});
