import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/render-json.js';
import { sampleLoadRun, sampleRun } from './fixtures/sample-run.js';

describe('renderJson', () => {
  it('round-trips the whole run result, evidence included, 2-space indented', () => {
    const result = sampleRun();
    const text = renderJson(result);
    expect(JSON.parse(text)).toEqual(result);
    expect(text.split('\n')[1]).toBe('  "schema": "svc-harness/run@1",');
    expect(text.split('\n')[2]).toBe('  "kind": "suite",');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('is stable: the same result gives the same text whatever order its keys were built in', () => {
    const a = sampleRun();
    const shuffled = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(renderJson(shuffled)).toBe(renderJson(a));
  });

  it('turns values JSON cannot hold into plain data instead of throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const shared = { n: 1 };
    const base = sampleRun();
    const details = {
      big: 12n,
      map: new Map([['a', 1]]),
      set: new Set([1, 2]),
      bytes: new Uint8Array([1, 2, 3]),
      err: new Error('boom'),
      cyclic,
      twice: [shared, shared],
    };
    const result = sampleRun({ cases: [{ ...base.cases[0]!, details }] });
    const written = JSON.parse(renderJson(result)).cases[0].details;
    expect(written).toEqual({
      big: '12',
      map: { a: 1 },
      set: [1, 2],
      bytes: { base64: 'AQID' },
      err: { name: 'Error', message: 'boom' },
      cyclic: { name: 'loop', self: '[Circular]' },
      twice: [{ n: 1 }, { n: 1 }],
    });
  });

  it('writes a load run whole: its kind, then its load result last', () => {
    const result = sampleLoadRun();
    const text = renderJson(result);
    expect(JSON.parse(text)).toEqual(result);
    expect(text.split('\n')[2]).toBe('  "kind": "load",');
    expect(Object.keys(JSON.parse(text)).at(-1)).toBe('load');
  });
});
