import { describe, expect, it } from 'vitest';
import { announcedSleep } from '../../src/load/announced-wait.js';
import { loadProgressBar, waitPrinter } from '../../src/load/progress.js';

function sink(isTTY: boolean) {
  const out: string[] = [];
  return { out, stream: { isTTY, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream };
}

const at = (elapsedS: number) => ({ elapsedS, durationS: 10, requests: elapsedS * 100, rps: 100, rateLimited: 10, errors: 0 });

describe('load progress', () => {
  it('prints a plain line every 5 s off a terminal and at the end; past the duration it says it is finishing', () => {
    const { out, stream } = sink(false);
    const p = loadProgressBar(stream, {});
    for (let s = 1; s <= 16; s++) p.update(at(s) as never);
    p.done();
    expect(out.map((l) => l.split('  ')[0])).toEqual(['load: 1/10 s', 'load: 6/10 s', 'load: 10/10 s', 'load: 10 s done, finishing']);
  });

  it('redraws one bar in place on a terminal', () => {
    const { out, stream } = sink(true);
    const p = loadProgressBar(stream, {});
    p.update(at(5) as never);
    p.done();
    expect(out[0]).toMatch(/^\r\[#{12}\.{12}\] 5\/10 s/);
    expect(out.at(-1)).toBe('\n');
  });
});

describe('load waits', () => {
  it('announces a wait longer than a second with its length, a shorter one not at all', async () => {
    const told: Array<{ ms: number; why: string }> = [];
    await announcedSleep(5, 'short', (w) => told.push(w));
    const ac = new AbortController();
    const long = announcedSleep(60_000, 'reading the wallets', (w) => told.push(w), ac.signal);
    ac.abort();
    await long.catch(() => undefined);
    expect(told).toEqual([{ ms: 60_000, why: 'reading the wallets' }]);
  });

  it('off a terminal prints one plain line per wait that ends later than those announced; on a terminal counts down in place', () => {
    const plain = sink(false);
    const p = waitPrinter(plain.stream, {});
    p.wait({ ms: 58_000, why: 'the read bucket of a is full' });
    p.wait({ ms: 10_000, why: 'the read bucket of b is full' });
    p.done();
    expect(plain.out).toEqual(['load: waiting 58 s: the read bucket of a is full\n']);

    const tty = sink(true);
    const t = waitPrinter(tty.stream, {});
    t.wait({ ms: 58_000, why: 'the read bucket of a is full' });
    t.done();
    expect(tty.out[0]).toMatch(/^\rwaiting 58 s: the read bucket of a is full/);
    expect(tty.out.at(-1)).toBe('\n');
  });
});
