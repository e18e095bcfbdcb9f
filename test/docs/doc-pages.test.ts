import { describe, expect, it } from 'vitest';
import { allPages, keyLines, linePattern, missingKeyLines, parseBlocks } from './doc-blocks.js';

const pages = allPages();

describe('the command blocks of the README and of docs/', () => {
  it('are each run by the docs test, or say why not', () => {
    const problems = [...pages.values()].flatMap((p) => p.problems);
    expect(problems).toEqual([]);
    const reasons = [...pages.values()].flatMap((p) => p.notRun.map((n) => n.reason));
    expect(reasons.every((r) => r.length > 10)).toBe(true);
  });

  it('are all marked: no command sits in a block without a language', () => {
    const unmarked = [...pages.keys()].flatMap((file) =>
      parseBlocks(file)
        .filter((b) => b.lang === '' && /^(?:npx|npm|node|curl|svc-harness)\s/m.test(b.code))
        .map((b) => `${b.file}:${b.line}`),
    );
    expect(unmarked).toEqual([]);
  });
});

describe('a key line of an output block', () => {
  it('stands for any number, any id and any run of spaces, and nothing else', () => {
    const shown = 'PASS: 60 passed, 0 failed of 60 in 22 s (seed 1405116611)';
    expect(linePattern(shown).test('PASS: 9 passed, 0 failed of 9 in 2.5 s (seed 993731676)')).toBe(true);
    expect(linePattern(shown).test('FAIL: 9 passed, 1 failed of 10 in 2 s (seed 993731676)')).toBe(false);
    expect(linePattern('load: 19 797 requests in 8.1 s').test('load: 875 requests in 5.4 s')).toBe(true);
    expect(linePattern('of 6 in 793 ms (seed 2078581402)').test('of 6 in 1 s (seed 173958732)')).toBe(true);
    expect(linePattern('latency p50 318.46 ms p99 2 275.33 ms').test('latency p50 66.30 ms p99 650.75 ms')).toBe(true);
    expect(linePattern('Reports: reports/20261128-095437-ff3d').test('Reports: reports/20261128-101010-0a1b')).toBe(true);
    expect(linePattern('Reports: reports/20261128-095437-ff3d').test('Reports: elsewhere/20261128-101010-0a1b')).toBe(false);
    expect(linePattern('  2xx   1 007  60.80 …').test('2xx 12 1.5 and the rest')).toBe(true);
    expect(linePattern('✓ rps>=500: rps measured 2 452 rps').test('✗ rps>=500: rps measured 54.4 rps')).toBe(true);
  });

  it('is every line but … unless the block names the lines by their starts', () => {
    const [block] = parseBlocks('x.md', '<!-- key lines: a: | c: -->\n```text\na: 1\nb: 2\n…\nc: 3\n```\n');
    expect(keyLines(block!)).toEqual(['a: 1', 'c: 3']);
    expect(missingKeyLines(keyLines(block!), 'a: 5\nc: 7 and more')).toEqual(['c: 3']);
  });
});
