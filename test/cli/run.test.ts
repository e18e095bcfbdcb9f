import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/** A port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function tmp(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'svc-run-'));
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |internal error/);

// One CLI process at a time: each starts the embedded mock and runs part of the suite, and side by side they only compete for the CPU.
describe('svc-harness run', () => {
  it('switches defects on in the embedded mock and fails exactly the check that catches one, exit 1', async () => {
    const dir = await tmp();
    const { code, stdout, stderr } = await runCli(['run', '--only', 'RL-04,AU-01', '--mock-defects', 'fixed-window', '--report-dir', join(dir, 'reports')]);
    expect(code, stderr).toBe(1);
    expect(stdout).toMatch(/^FAIL\s+RL-04 .*(not rolling|fixed clock-minute)/m);
    expect(stdout).toMatch(/^PASS\s+AU-01 /m);
  });

  it('refuses --mock-defects with a target, and an unknown defect, in one line, exit 2', async () => {
    for (const args of [
      ['--target', 'profiles/reference.yaml', '--mock-defects', 'fixed-window'],
      ['--mock-defects', 'no-such-defect'],
    ]) {
      const { code, stderr } = await runCli(['run', ...args]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      noStack(stderr);
    }
  });

  it('refuses a --max-wait that is not a number of seconds ≥ 0, naming what was typed, in one line, exit 2', async () => {
    for (const bad of ['abc', '-1']) {
      const { code, stderr } = await runCli(['run', '--max-wait', bad]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`--max-wait must be a number of seconds ≥ 0, got ${bad === 'abc' ? '"abc"' : bad}`)]);
      noStack(stderr);
    }
  });

  it('--fuzz-runs N runs openapi-inputs N times, its seed printed first; a bad N is one line, exit 2', async () => {
    for (const bad of ['abc', '0']) {
      const { code, stderr } = await runCli(['run', '--only', 'property:openapi-inputs', '--fuzz-runs', bad]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('--fuzz-runs must be an integer from 1 to 100000')]);
      noStack(stderr);
    }
    const dir = await tmp();
    const { code, stdout, stderr } = await runCli([
      'run',
      '--only',
      'property:openapi-inputs',
      '--fuzz-runs',
      '2',
      '--seed',
      '11',
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Fuzzing: property:openapi-inputs, 2 runs, seed 11');
    expect(stdout).toMatch(/^PASS\s+property:openapi-inputs /m);
    const summary = await readFile(join(dir, 'reports', 'latest', 'summary.md'), 'utf8');
    expect(summary).toContain('## Generated inputs of `property:openapi-inputs` (seed `11`)');
    expect(summary).toMatch(/\| POST \/\{product\}\/bookings \| [^|]*type[^|]* \| 2 \| \d+ \|/);
  });

  it('exits 2 with one line naming every wrong field of a bad profile', async () => {
    const dir = await tmp();
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'limits:\n  window_s: 60s\nbase_url: nowhere\nclokc: {control: none}\n');
    const { code, stdout, stderr } = await runCli(['run', '--target', file, '--report-dir', join(dir, 'reports')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('limits.window_s must be an integer from 1 to 86400 s, got "60s"');
    expect(lines[0]).toContain('base_url must be an http(s) URL, got "nowhere"');
    expect(lines[0]).toContain('clokc is not a known field (did you mean clock?)');
    noStack(stderr);
  });

  it('exits 3 with one line when the target does not answer', async () => {
    const dir = await tmp();
    const port = await closedPort();
    const file = join(dir, 'closed.yaml');
    await writeFile(
      file,
      `base_url: http://127.0.0.1:${port}/v1\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_RUN_SECRET}\n`,
    );
    const { code, stdout, stderr } = await runCli(['run', '--target', file, '--report-dir', join(dir, 'reports')], { T_RUN_SECRET: 'a-secret-value' });
    expect(code).toBe(3);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`target http://127\\.0\\.0\\.1:${port}/v1 is unreachable.*ECONNREFUSED`));
    expect(stdout + stderr).not.toContain('a-secret-value');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
    noStack(stderr);
  });

  it('exits 2 naming the variable when a needed secret is not set', async () => {
    const dir = await tmp();
    const file = join(dir, 'nosecret.yaml');
    await writeFile(file, `clock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_RUN_UNSET_SECRET}\n`);
    const { code, stderr } = await runCli(['run', '--target', file], { T_RUN_UNSET_SECRET: '' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('T_RUN_UNSET_SECRET');
    noStack(stderr);
  });

  it('exits 2 listing the valid ids and areas for an unknown --only', async () => {
    const { code, stderr } = await runCli(['run', '--only', 'NOPE-1', '--report-dir', join(await tmp(), 'r')]);
    expect(code).toBe(2);
    expect(stderr).toContain('"NOPE-1"');
    expect(stderr).toContain('areas: auth');
    noStack(stderr);
  });

  it("never removes a user's latest folder or overwrites their latest.json: one line naming it and where the reports went, exit 2", async () => {
    const dir = await tmp();
    const d = join(dir, 'd');
    await mkdir(join(d, 'latest'), { recursive: true });
    await writeFile(join(d, 'latest', 'notes.txt'), 'notes\n');
    await writeFile(join(d, 'latest.json'), '{"mine":1}\n');
    const { code, stderr } = await runCli(['run', '--only', 'WL-05', '--report-dir', d]);
    expect(code, stderr).toBe(2);
    expect(await readFile(join(d, 'latest', 'notes.txt'), 'utf8')).toBe('notes\n');
    expect(await readFile(join(d, 'latest.json'), 'utf8')).toBe('{"mine":1}\n');
    // The run's progress (its plan line) is on stderr too: the error is one line of its own.
    const lines = stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('Running '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(d, 'latest'));
    noStack(stderr);
    const runDir = (await readdir(d)).filter((n) => n !== 'latest' && n !== 'latest.json');
    expect(runDir).toHaveLength(1);
    expect(lines[0]).toContain(join(d, runDir[0]!));
    expect(existsSync(join(d, runDir[0]!, 'report.json'))).toBe(true);
  });

  it('runs against the embedded mock, writes the reports and exits 0; the results on stdout, the progress on stderr', async () => {
    const dir = await tmp();
    const reports = join(dir, 'reports');
    const { code, stdout, stderr } = await runCli(['run', '--only', 'auth', '--report-dir', reports, '--seed', '7'], { CI: '1' });
    // `run > out.txt`: the plan is progress, on stderr, and nothing else is there; every result line is on stdout.
    expect(stderr).toMatch(/^Running \d+ checks, each on a freshly reset target\.\n$/);
    expect(stdout).not.toContain('Running');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Target: embedded mock at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(stdout).toMatch(/^PASS\s+AU-01\s+.+\(\d+ ms\)$/m);
    expect(stdout).toMatch(/^PASS: \d+ passed, 0 failed, 0 errors/m);
    const reportDir = /Reports: (.+)$/m.exec(stdout)?.[1];
    expect(reportDir).toBeDefined();
    expect(existsSync(join(reportDir!, 'report.json'))).toBe(true);
    expect(existsSync(join(reports, 'latest'))).toBe(true);
  });

  it('prints one JSON summary with --json', async () => {
    const dir = await tmp();
    const { code, stdout } = await runCli(['run', '--only', 'AU-01,CT-01', '--json', '--report-dir', join(dir, 'reports')]);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as { verdict: string; cases: Array<{ id: string; verdict: string }>; report_dir: string };
    expect(summary.verdict).toBe('PASS');
    expect(summary.cases.map((c) => c.id)).toEqual(['AU-01', 'CT-01']);
    expect(existsSync(summary.report_dir)).toBe(true);
  });
});
