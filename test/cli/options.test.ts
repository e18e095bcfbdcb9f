import { describe, expect, it } from 'vitest';
import { buildParser } from '../../src/cli/parser.js';
import { commaList, httpUrl, integer, nonEmptyCommaList, port, seconds, shard, typedValue } from '../../src/cli/options.js';

const context = {
  quit(): never {
    throw new Error('quit');
  },
};

describe('shared option parsers', () => {
  it('split a comma list once, the same way everywhere', () => {
    expect(commaList(' a, b,,c , ')).toEqual(['a', 'b', 'c']);
    expect(commaList(undefined)).toEqual([]);
    expect(() => nonEmptyCommaList('only-defects', 'defect names')(' , ')).toThrow('--only-defects needs a comma list of defect names');
  });

  it.each([
    [() => port('port')(65536), '--port must be a port number from 0 to 65535, got 65536'],
    [() => port('receiver-port')(1.5), '--receiver-port must be a port number from 0 to 65535, got 1.5'],
    [() => integer('seed', 0)(-1), '--seed must be an integer ≥ 0, got -1'],
    [() => integer('agencies', 1, 10_000)(0), '--agencies must be an integer from 1 to 10000, got 0'],
    [() => seconds('duration', { above: 0, max: 86_400 })(0), '--duration must be a number of seconds from 0 to 86400, got 0'],
    [() => seconds('duration', { above: 0 })(Number.NaN), '--duration must be a number of seconds > 0, got NaN'],
    [() => seconds('max-wait', { atLeast: 0 })(-1), '--max-wait must be a number of seconds ≥ 0, got -1'],
    [() => httpUrl('receiver-url')('ftp://x'), '--receiver-url must be an http(s) URL, got "ftp://x"'],
    [() => shard('3/2'), '--shard must be i/N with 1 ≤ i ≤ N, got "3/2"'],
  ])('refuse a wrong value naming the option and the value (%#)', (parse, message) => {
    expect(parse).toThrow(expect.objectContaining({ code: 'E_USAGE', message }));
  });

  it('name what was typed where yargs made a number option NaN (--fuzz-runs abc said "got NaN")', () => {
    expect(typedValue('fuzz-runs', ['node', 'main.js', 'run', '--fuzz-runs', 'abc'])).toBe('abc');
    expect(typedValue('duration', ['node', 'main.js', 'load', '--duration=1e', '--duration', 'x5'])).toBe('x5');
    expect(typedValue('duration', ['node', 'main.js', 'load', '--', '--duration', 'x'])).toBeUndefined();
    expect(typedValue('seed', ['node', 'main.js', 'run', '--seed'])).toBeUndefined();
  });

  it('accept the values at their bounds', () => {
    expect([port('p')(0), port('p')(65535), integer('i', 1, 3)(3), seconds('s', { atLeast: 0 })(0), seconds('s', { above: 0, max: 5 })(5)]).toEqual([
      0, 65535, 3, 0, 5,
    ]);
    expect(shard(' 2 / 3 ')).toEqual({ index: 2, count: 3 });
    expect(httpUrl('u')('https://x.test/hook')).toBe('https://x.test/hook');
  });

  it('reach the user as a one-line usage error (E_USAGE, exit 2), though yargs rewraps what a coerce throws', async () => {
    await expect(buildParser(['load', '--shard', '3/2'], context).run()).rejects.toMatchObject({
      code: 'E_USAGE',
      message: '--shard must be i/N with 1 ≤ i ≤ N, got "3/2"',
    });
    await expect(buildParser(['mock', '--port', '70000'], context).run()).rejects.toMatchObject({ code: 'E_USAGE', exitCode: 2 });
    // run bounds its waits in real time as certify does (--max-wait): a wrong value is refused before anything starts
    // (in a process it says got "abc": what was typed is read from process.argv).
    for (const command of ['run', 'scenario', 'certify'])
      await expect(buildParser([command, '--max-wait', 'abc'], context).run()).rejects.toMatchObject({
        code: 'E_USAGE',
        exitCode: 2,
        message: expect.stringMatching(/^--max-wait must be a number of seconds ≥ 0, got /),
      });
    await expect(buildParser(['run', '--target', 'x.yaml', '--mock-defects', 'fixed-window'], context).run()).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringContaining('embedded mock only'),
    });
  });
});
