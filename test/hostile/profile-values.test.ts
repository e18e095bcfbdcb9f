/*
 * Profile values out of every sane range: each is refused with exit 2 naming
 * the key and the range, before a clock is moved or a request sent (a window
 * of 99999999999 s moved the mock's clock 31.7 million years).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/profile/load-profile.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { clockBoundMs } from '../../src/clock/clock-bound.js';
import { runCli } from '../helpers/run-cli.js';

/** The message resolving `input` throws (the test fails when it resolves). */
function refusal(input: unknown): string {
  try {
    resolveProfile(input);
  } catch (err) {
    expect((err as { code?: string }).code).toBe('E_PROFILE_INVALID');
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

const CASES: Array<[string, unknown, RegExp]> = [
  ['limits.window_s', { limits: { window_s: 99_999_999_999 } }, /limits\.window_s must be an integer from 1 to 86400 s, got 99999999999/],
  ['quotes.lifetime_s', { quotes: { lifetime_s: 1e15 } }, /quotes\.lifetime_s must be an integer from 1 to 86400 s, got 1000000000000000/],
  ['limits.nonce_retention_s', { limits: { nonce_retention_s: 1e12 } }, /limits\.nonce_retention_s must be an integer from 1 to 86400 s/],
  ['limits.timestamp_tolerance_s', { limits: { timestamp_tolerance_s: 1e12 } }, /limits\.timestamp_tolerance_s must be an integer from 1 to 86400 s/],
  ['limits.max_body_bytes', { limits: { max_body_bytes: 1e12 } }, /limits\.max_body_bytes must be an integer from 1 to 67108864 bytes/],
  ['limits.statement_page_size', { limits: { statement_page_size: 1e9 } }, /limits\.statement_page_size must be an integer from 1 to 10000/],
  ['webhooks.max_attempts', { webhooks: { max_attempts: 1e9 } }, /webhooks\.max_attempts must be an integer from 1 to 100/],
  ['webhooks.base_ms', { webhooks: { base_ms: 1e15 } }, /webhooks\.base_ms must be an integer from 0 to 86400000 ms/],
  ['webhooks.factor', { webhooks: { factor: 1e300 } }, /webhooks\.factor must be a number from 1 to 100/],
  ['webhooks.delivery_timeout_ms', { webhooks: { delivery_timeout_ms: 1e12 } }, /webhooks\.delivery_timeout_ms must be an integer from 1 to 600000 ms/],
  [
    'webhooks retry schedule',
    { webhooks: { max_attempts: 50, factor: 10, base_ms: 5000 } },
    /webhooks: the retry schedule .* must take at most 86400000 ms \(a day\)/,
  ],
  ['request_timeout_ms', { request_timeout_ms: 1e12 }, /request_timeout_ms must be an integer from 1 to 600000 ms/],
  ['max_response_bytes', { max_response_bytes: 1e12 }, /max_response_bytes must be an integer from 1 to 268435456 bytes/],
  ['max_fill_requests', { max_fill_requests: 0 }, /max_fill_requests must be an integer from 1 to 1000000 requests/],
  [
    'agencies[0].limits.write',
    { agencies: [{ id: 'a', key_id: 'k', secret_env: 'S', limits: { read: 10, write: 1e9 } }] },
    /agencies\[0\]\.limits\.write must be an integer from 1 to 1000000 requests/,
  ],
];

describe('hostile profile values', () => {
  it.each(CASES)('%s out of range is refused, naming the key and the range', (_key, input, message) => {
    expect(refusal(input)).toMatch(message);
  });

  it("the largest values accepted keep the run's clock bound within two days", () => {
    const widest = resolveProfile({
      limits: { window_s: 86_400, nonce_retention_s: 86_400 },
      quotes: { lifetime_s: 86_400 },
      webhooks: { max_attempts: 1, base_ms: 86_400_000, delivery_timeout_ms: 600_000 },
    });
    expect(clockBoundMs(widest)).toBeLessThanOrEqual(2 * 86_400_000 + 2 * 600_000);
  });

  it('`run` with limits.window_s 99999999999 exits 2 naming it, before any request', { timeout: 30_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hostile-profile-'));
    try {
      const profile = join(dir, 'target.yaml');
      await writeFile(profile, 'base_url: http://127.0.0.1:9/v1\nclock: { control: none }\nlimits: { window_s: 99999999999 }\n');
      const run = await runCli(['run', '--target', profile, '--report-dir', join(dir, 'reports')]);
      expect(run.stderr).toContain('limits.window_s must be an integer from 1 to 86400 s, got 99999999999');
      expect(run.code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('hostile profile files', () => {
    let dir: string;
    const refused = async (path: string): Promise<string> => {
      try {
        await loadProfile(path);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('E_FILE_UNREADABLE');
        return (err as Error).message;
      }
      throw new Error(`${path} loaded`);
    };

    it('a FIFO is refused at once (it blocked forever)', { timeout: 5_000 }, async () => {
      dir = await mkdtemp(join(tmpdir(), 'hostile-profile-file-'));
      const fifo = join(dir, 'target.yaml');
      execFileSync('mkfifo', [fifo]);
      expect(await refused(fifo)).toMatch(/FIFO.*not a regular file/);
    });

    it('a file over 1 MiB is refused before it is read', async () => {
      const path = join(dir, 'big.yaml');
      await writeFile(path, `name: ${'x'.repeat(2 * 1024 * 1024)}\n`);
      expect(await refused(path)).toMatch(/more than the 1 MiB accepted/);
    });

    it('flow collections nested 300 000 deep are refused before parsing', async () => {
      const path = join(dir, 'deep.yaml');
      await writeFile(path, `search_body: ${'['.repeat(300_000)}${']'.repeat(300_000)}\n`);
      expect(await refused(path)).toMatch(/nests deeper than 64 levels/);
      await rm(dir, { recursive: true, force: true });
    });
  });
});
