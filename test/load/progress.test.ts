import { describe, expect, it } from 'vitest';
import { progressPrinter } from '../../src/load/progress.js';

function sink(isTTY: boolean) {
  const out: string[] = [];
  return { out, stream: { isTTY, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream };
}

const at = (elapsedS: number) => ({ elapsedS, durationS: 10, requests: elapsedS * 100, rps: 100, rateLimited: 10, errors: 0 });

describe('load progress', () => {
  it('prints a plain line every 5 s off a terminal and at the end; past the duration it says it is finishing', () => {
    const { out, stream } = sink(false);
    const p = progressPrinter(stream, {});
    for (let s = 1; s <= 16; s++) p.update(at(s) as never);
    p.done();
    expect(out.map((l) => l.split('  ')[0])).toEqual(['load: 1/10 s', 'load: 6/10 s', 'load: 10/10 s', 'load: 10 s done, finishing']);
  });

  it('redraws one bar in place on a terminal', () => {
    const { out, stream } = sink(true);
    const p = progressPrinter(stream, {});
    p.update(at(5) as never);
    p.done();
    expect(out[0]).toMatch(/^\r\[#{12}\.{12}\] 5\/10 s/);
    expect(out.at(-1)).toBe('\n');
  });
});
