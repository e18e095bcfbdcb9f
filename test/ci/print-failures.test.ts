import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `.ci/print-failures.mjs`: what the end of a failed CI log says. */
function summarise(results: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'print-failures-'));
  const file = join(dir, 'results.json');
  writeFileSync(file, typeof results === 'string' ? results : JSON.stringify(results));
  return execFileSync(process.execPath, ['.ci/print-failures.mjs', file], { encoding: 'utf8' });
}

describe('.ci/print-failures.mjs', () => {
  it('names each failing test with the first lines of its error, without the runner frames', () => {
    const out = summarise({
      testResults: [
        {
          name: `${process.cwd()}/test/a.test.ts`,
          status: 'failed',
          assertionResults: [
            { fullName: 'a passes', status: 'passed', failureMessages: [] },
            {
              fullName: 'a adds',
              status: 'failed',
              failureMessages: ['AssertionError: expected 2 to be 3\n    at /w/test/a.test.ts:2:34\n    at file:///w/node_modules/@vitest/runner/x.js:1:1'],
            },
          ],
        },
        { name: `${process.cwd()}/test/b.test.ts`, status: 'failed', message: 'Error: hook timed out', assertionResults: [] },
      ],
    });
    expect(out).toContain('2 failing test(s)');
    expect(out).toContain('✗ test/a.test.ts › a adds');
    expect(out).toContain('AssertionError: expected 2 to be 3');
    expect(out).toContain('at /w/test/a.test.ts:2:34');
    expect(out).not.toContain('node_modules');
    expect(out).not.toContain('a passes');
    expect(out).toContain('✗ test/b.test.ts › (the file itself)');
    expect(out).toContain('Error: hook timed out');
  });

  it('says where to look when no test failed, and when there are no results', () => {
    expect(summarise({ testResults: [] })).toMatch(/build, type check or lint/);
    expect(summarise('not json')).toMatch(/no test results to summarise/);
  });
});
