import { describe, expect, it } from 'vitest';
import { replayCommand, shellWord } from '../../properties/_internal/replay-command.js';
import { createHarness } from '../../src/harness.js';
import { replayContext } from '../../src/runner/replay-context.js';

describe('the replay command of a property', () => {
  it('names the target file, the mock defects, the property, its seed and both paths', () => {
    const context = replayContext({ targetFile: '/srv/profiles/staging.yaml', embedded: false });
    expect(replayCommand({ name: 'quote-lock', seed: 7, path: '0:2', replayPath: 'GBA:F', context })).toBe(
      'svc-harness run --target /srv/profiles/staging.yaml --only property:quote-lock --seed 7 --property-path 0:2 --property-replay-path GBA:F',
    );
    const mock = replayContext({ embedded: true, mockDefects: ['replay-differs', 'limit-plus-one'] });
    expect(replayCommand({ name: 'idempotency-model', seed: 1, path: '3', context: mock })).toBe(
      'svc-harness run --mock-defects replay-differs,limit-plus-one --only property:idempotency-model --seed 1 --property-path 3',
    );
  });

  it('makes a relative profile path absolute and quotes what a shell would split', () => {
    const [, file] = replayContext({ targetFile: 'my profiles/it.yaml', embedded: false });
    expect(file).toBe(`${process.cwd()}/my profiles/it.yaml`);
    expect(shellWord(file!)).toBe(`'${process.cwd()}/my profiles/it.yaml'`);
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('')).toBe("''");
  });

  it('is printed by a failing property run against a broken embedded mock with its defects', async () => {
    const harness = createHarness({ mock: { defects: ['replay-differs'] } });
    try {
      const result = await harness.run({ only: 'property:idempotency-model', seed: 7 });
      const c = result.cases.find((x) => x.id === 'property:idempotency-model');
      expect(c?.verdict).toBe('FAIL');
      expect(String(c?.details?.['replay'])).toMatch(
        /^svc-harness run --mock-defects replay-differs --only property:idempotency-model --seed 7 --property-path \S+/,
      );
    } finally {
      await harness.close();
    }
  }, 60_000);
});
