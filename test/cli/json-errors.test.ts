import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wantsJson } from '../../src/cli/json-output.js';
import { runCli } from '../helpers/run-cli.js';

/** The one JSON object on stdout. */
function only(stdout: string): { error: { code: string; message: string; exit: number } } {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as { error: { code: string; message: string; exit: number } };
}

describe('--json on an error', () => {
  it('prints one JSON object with the error on stdout, exit 2, for a usage error of any command', async () => {
    for (const args of [
      ['load', '--threshold', 'foo<1', '--json'],
      ['run', '--target', 'no-such-profile.yaml', '--json'],
      ['report', 'merge', 'nope.json', '--json'],
    ]) {
      const r = await runCli(args, { CI: '1' });
      expect(r.code, args.join(' ')).toBe(2);
      const { error } = only(r.stdout);
      expect(error.exit).toBe(2);
      expect(error.code).toMatch(/^E_/);
      expect(error.message.length).toBeGreaterThan(0);
      expect(r.stderr).toContain(error.message);
    }
  }, 60_000);

  it('exit 3 for a target that does not answer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'json-err-'));
    try {
      const profile = join(dir, 'down.yaml');
      await writeFile(
        profile,
        'name: down\nbase_url: http://127.0.0.1:9\nhotel_base_url: null\nagencies:\n  - {id: a, key_id: k, secret: not-a-real-secret-0001}\n',
      );
      const r = await runCli(['run', '--target', profile, '--only', 'AU-01', '--report-dir', dir, '--json'], { CI: '1' });
      expect(r.code).toBe(3);
      expect(only(r.stdout).error).toMatchObject({ code: 'E_TARGET_UNREACHABLE', exit: 3 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('is asked for by --json before a `--`', () => {
    expect(wantsJson(['load', '--json'])).toBe(true);
    expect(wantsJson(['load', '--json=true'])).toBe(true);
    expect(wantsJson(['load'])).toBe(false);
    expect(wantsJson(['certify-client', '--run', 'x', '--', '--json'])).toBe(false);
  });
});
