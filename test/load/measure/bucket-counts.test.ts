import fc from 'fast-check';
import type * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../../src/load/measure/latency-histogram.js';

const latencies = fc.array(fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 4_000_000, noNaN: true })), {
  minLength: 0,
  maxLength: 200,
});

/** HDR's own mean of a histogram, in ms (iterating every bucket). */
const hdrMeanMs = (h: LatencyHistogram): number => (h as unknown as { h: hdr.Histogram }).h.mean / 1000;

describe('bucket counts handed over by a fast histogram and summed in a wide one', () => {
  it('give the encoding, summary and spectrum of one packed histogram that recorded every value, and HDR’s own mean', () => {
    fc.assert(
      fc.property(fc.array(latencies, { maxLength: 6 }), (seconds) => {
        const fast = new LatencyHistogram('fast');
        const sum = new LatencyHistogram('wide');
        const direct = new LatencyHistogram();
        for (const values of seconds) {
          for (const v of values) {
            fast.recordMs(v);
            direct.recordMs(v);
          }
          const counts = fast.takeCounts();
          expect(fast.count).toBe(0);
          if (counts) sum.addCounts(counts);
          else expect(values).toEqual([]);
        }
        expect(sum.count).toBe(direct.count);
        expect(sum.encode()).toBe(direct.encode());
        expect(sum.summary()).toEqual(direct.summary());
        expect(sum.spectrum()).toEqual(direct.spectrum());
        expect(sum.summary().mean).toBe(direct.count === 0 ? 0 : hdrMeanMs(direct));
        // A decoded histogram's mean, read from its sparse counts: HDR's too.
        expect(LatencyHistogram.decode(direct.encode()).summary().mean).toBe(direct.count === 0 ? 0 : hdrMeanMs(direct));
      }),
      { numRuns: 80 },
    );
  });
});
