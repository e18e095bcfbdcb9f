import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { GATE_BREAKING_LOAD } from '../helpers/gate-breaking-load.js';
import { cliArgs } from '../helpers/cli-entry.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });

describe('svc-harness load', () => {
  it('a failing threshold exits 99 and is a failing JUnit case; report merge refuses the same result twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'load-cli-'));
    try {
      const run = await cli([...GATE_BREAKING_LOAD, '--report-dir', dir, '--json']);
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code).toBe(99);
      const summary = JSON.parse(run.stdout.trim()) as { report_dir: string; totals: { requests: number } };
      expect(summary.totals.requests).toBeGreaterThan(0);
      // One JSON style across commands: snake_case keys, as `run --json` and the reference API's wire format.
      const keys = (v: unknown): string[] => (v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]) : []);
      expect(keys(summary).filter((k) => /[a-z][A-Z]/.test(k))).toEqual([]);
      const junit = await readFile(join(summary.report_dir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testcase classname="svc-harness\.load" name="gate:rps&gt;=100000000[^>]*>\s*<failure/);
      const html = await readFile(join(summary.report_dir, 'report.html'), 'utf8');
      expect(html).toContain('Throughput per second');

      const twice = await cli(['report', 'merge', join(summary.report_dir, 'report.json'), join(summary.report_dir, 'report.json'), '-o', join(dir, 'merged')]);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(/cannot merge: .*report\.json is the same run .* \(merging it twice would double every count\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a misspelt gate metric before any load, exit 2, listing the metrics that exist', async () => {
    const started = Date.now();
    const r = await cli(['load', '--duration', '60', '--threshold', 'foo<1', '--threshold', 'rps>=1']);
    expect(r.code).toBe(2);
    // Well before the 60 s the load would take, however slow the machine.
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(r.stderr).toMatch(/unknown gate metric "foo" \(in foo<1\)/);
    for (const m of ['mean', 'count', '429.rate']) expect(r.stderr).toContain(m);
    expect(r.stderr).not.toMatch(/load: [\d ]+ requests/);
  }, 50_000);

  it('takes --mock-defects like run; the old --defects still works, warns, and both refuse an unknown defect before the load', async () => {
    const [now, old, target] = await Promise.all([
      cli(['load', '--mock-defects', 'no-such-defect']),
      cli(['load', '--defects', 'no-such-defect']),
      cli(['load', '--mock-defects', 'fixed-window', '--target', 'profiles/reference.yaml']),
    ]);
    for (const r of [now, old]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no-such-defect/);
    }
    expect(now.stderr).not.toMatch(/deprecated/);
    expect(old.stderr).toMatch(/load --defects is deprecated, use --mock-defects/);
    expect(target.code).toBe(2);
    expect(target.stderr).toMatch(/--mock-defects applies to the embedded mock only/);
    const help = await cli(['load', '--help']);
    expect(help.stdout).toContain('--mock-defects');
    expect(help.stdout).not.toMatch(/--defects\b/);
  }, 30_000);

  it('refuses bad options in one line, exit 2', async () => {
    const r = await cli(['load', '--shard', '3/2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shard must be i\/N/);
    expect(r.stderr).not.toMatch(/at .*\.ts/);
    // A limit the embedded mock's fixture would refuse is refused as an option, naming it.
    const limit = await cli(['load', '--read-limit', '10000000']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toMatch(/--read-limit must be an integer from 1 to 1000000, got 10000000/);
    const grace = await cli(['load', '--graceful-stop', '11']);
    expect(grace.code).toBe(2);
    expect(grace.stderr).toMatch(/--graceful-stop must be a number of seconds from 0 to 10, got 11/);
  }, 120_000);
});

describe('svc-harness load, interrupted', () => {
  it('stops at the first Ctrl-C and writes the report; a second Ctrl-C quits at once with exit 130', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'load-int-'));
    try {
      const child = spawn(process.execPath, [...cliArgs(), 'load', '--agencies', '1', '--duration', '60', '--report-dir', dir], {
        env: { ...process.env, CI: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // The first progress line says the load runs and the handlers are in place.
      await new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), /\d+ ?s/.test(stderr) && resolve())));
      child.kill('SIGINT');
      await new Promise<void>((resolve) => child.stderr.on('data', () => /stopping the load/.test(stderr) && resolve()));
      child.kill('SIGINT');
      expect(await closed).toBe(130);
      expect(stderr).not.toMatch(/internal error|\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
