import { describe, expect, it } from 'vitest';
import { assertMergeable } from '../../src/load/merge/merge-set.js';
import type { LoadPart } from '../../src/load/merge/read-load-inputs.js';
import { sampleLoadResult } from './_load-result.js';

const part = (file: string, runId: string | undefined, shard?: [number, number]): LoadPart => ({
  file,
  runId,
  load: sampleLoadResult(5, { shards: shard ? [{ index: shard[0], count: shard[1] }] : [] }),
});

describe('assertMergeable', () => {
  it('accepts a whole shard set, and separate unsharded runs', () => {
    expect(() => assertMergeable([part('a', 'r1', [1, 3]), part('b', 'r2', [2, 3]), part('c', 'r3', [3, 3])])).not.toThrow();
    expect(() => assertMergeable([part('a', 'r1'), part('b', 'r2')])).not.toThrow();
  });

  it('refuses one result given twice, by run id or, for bare results, by span and count', () => {
    expect(() => assertMergeable([part('a.json', 'r1'), part('a.json', 'r1')])).toThrow(
      /a\.json is the same run r1 as a\.json \(merging it twice would double every count\)/,
    );
    expect(() => assertMergeable([part('x.json', undefined), part('y.json', undefined)])).toThrow(/y\.json is the same load started/);
  });

  it('refuses a shard set with gaps, a shard twice, and mixed cuts, all in one message', () => {
    expect(() => assertMergeable([part('a', 'r1', [1, 3]), part('c', 'r3', [3, 3])])).toThrow(/cannot merge: shard 2\/3 is missing/);
    expect(() => assertMergeable([part('a', 'r1', [1, 2]), part('b', 'r2', [1, 2])])).toThrow(/shard 1\/2 is given twice \(a, b\); shard 2\/2 is missing/);
    expect(() => assertMergeable([part('a', 'r1', [1, 2]), part('b', 'r2', [2, 3])])).toThrow(/different numbers of parts/);
    expect(() => assertMergeable([part('a', 'r1', [1, 1]), part('b', 'r2')])).toThrow(/b is not a shard but merged with shards/);
  });
});
