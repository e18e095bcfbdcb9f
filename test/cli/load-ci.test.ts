import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { startMockProcess, type MockProcess } from '../helpers/mock-process.js';

/*
 * Loads as CI runs them, against a mock in another process (the harness
 * neither embeds it nor moves its clock): back to back, in shards at once,
 * stopped cleanly, and against a limiter that really refuses early. A short
 * window (3 s, 6 s back to back) keeps each row to seconds.
 */

const WINDOW_S = 3;
/**
 * What a load that only has to pass its agencies' limits (40 reads each) runs for: 300 answers, 5 s at most. A load
 * of fixed seconds sends as many requests as the machine allows, and takes every CPU it finds for its whole length.
 */
const PAST_THE_LIMITS = ['--requests', '300', '--duration', '5'];
const cli = (args: string[]): Promise<CliRun> => runCli(args, { CI: '1' });

let mock: MockProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function start(o: { agencies: number; read: number; windowS?: number; args?: string[] }): Promise<{ profile: string; dir: string }> {
  dir = await mkdtemp(join(tmpdir(), 'load-ci-'));
  const windowS = o.windowS ?? WINDOW_S;
  mock = await startMockProcess(dir, { agencies: o.agencies, limits: { read: o.read, write: 8 }, args: ['--window-s', String(windowS), ...(o.args ?? [])] });
  return { profile: await mock.profile(dir, windowS), dir };
}

interface LoadJson {
  exit_code: number;
  report_dir: string;
  totals: Record<string, number>;
}

/** What a failed run printed, with the messages of its verdicts that did not pass (from its report, when one was written). */
function failures(run: CliRun): string {
  let verdicts = '';
  try {
    const report = JSON.parse(readFileSync(join((JSON.parse(run.stdout) as LoadJson).report_dir, 'report.json'), 'utf8')) as {
      load?: { verdicts?: Array<{ verdict: string; message: string }> };
    };
    verdicts = (report.load?.verdicts ?? [])
      .filter((v) => v.verdict !== 'PASS' && v.verdict !== 'SKIP')
      .map((v) => `${v.verdict} ${v.message}`)
      .join('\n');
  } catch {
    // No report to read: what was printed says why.
  }
  return `exit ${String(run.code)}\n${verdicts}\n${run.stdout}\n${run.stderr}`;
}

describe('load as CI runs it, against a mock in another process', () => {
  it('5 loads back to back: no false alarm, though each starts with the previous one still in its buckets', async () => {
    // A window longer than the gap between two loads (process start, wallet reads): each starts with the previous one's reads in it.
    const { profile, dir: d } = await start({ agencies: 2, read: 40, windowS: 6 });
    for (let i = 1; i <= 5; i++) {
      const run = await cli([
        'load',
        '--target',
        profile,
        '--search',
        'flights',
        ...PAST_THE_LIMITS,
        '--connections',
        '2',
        '--report-dir',
        join(d, `run-${i}`),
        '--json',
      ]);
      expect(run.code, `load ${i}: ${failures(run)}`).toBe(0);
      const report = JSON.parse(await readFile(join((JSON.parse(run.stdout) as LoadJson).report_dir, 'report.json'), 'utf8')) as {
        load: { verdicts: Array<{ kind: string; bucket?: string; details: { start?: { known: string } } }> };
      };
      // Every read bucket's start was read from the headers of its first answer.
      const early = report.load.verdicts.filter((v) => v.kind === 'early-throttle' && v.bucket === 'read');
      expect(early.map((v) => v.details.start?.known)).toEqual(['headers', 'headers']);
    }
  }, 120_000);

  it("4 shards at once, then merge: no shard reads another's agencies, no false alarm, merge exit 0 naming the target", async () => {
    const { profile, dir: d } = await start({ agencies: 4, read: 40 });
    const runs = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        cli([
          'load',
          '--target',
          profile,
          '--search',
          'flights',
          '--shard',
          `${i}/4`,
          ...PAST_THE_LIMITS,
          '--connections',
          '2',
          '--report-dir',
          join(d, `shard-${i}`),
          '--json',
        ]),
      ),
    );
    for (const r of runs) expect(r.code, failures(r)).toBe(0);
    const reports = runs.map((r) => join((JSON.parse(r.stdout) as LoadJson).report_dir, 'report.json'));
    const merged = await cli(['report', 'merge', ...reports, '-o', join(d, 'merged')]);
    expect(merged.code, failures(merged)).toBe(0);
    expect(merged.stdout).toMatch(/verdicts: \d+ pass, 0 fail/);
    expect(merged.stdout).toMatch(/✓ PASS \(exit 0\)/);
    const dirOut = /reports: (\S+)/.exec(merged.stdout)![1]!;
    const md = await readFile(join(dirOut, 'summary.md'), 'utf8');
    expect(md).toContain(`Target: mock-process \`${mock!.baseUrl}\``);
    const report = JSON.parse(await readFile(join(dirOut, 'report.json'), 'utf8')) as { load: { verdicts: Array<{ id: string; verdict: string }> } };
    // The merged verdicts are those one process over every agency gives: 3 per bucket and a wallet, per agency.
    const ids = report.load.verdicts.map((v) => v.id.replace(/agency-load-\d+/, 'A'));
    expect(ids.filter((x) => x === 'load:early-throttle:A:read')).toHaveLength(4);
    expect(ids.filter((x) => x === 'load:wallet:A')).toHaveLength(4);
    expect(report.load.verdicts.filter((v) => v.verdict === 'FAIL' || v.verdict === 'ERROR')).toEqual([]);

    // A failed gate of the merge is named with ✗, and the last line agrees with the exit status.
    const gated = await cli(['report', 'merge', ...reports, '-o', join(d, 'gated'), '--threshold', 'rps>=100000000']);
    expect(gated.code).toBe(99);
    expect(gated.stdout).toMatch(/✗ rps>=100000000/);
    expect(gated.stdout).toMatch(/✗ FAIL: 1 gate\(s\) failed \(exit 99\)/);
  }, 120_000);

  it('a clean load that stops with requests in flight passes errors.rate<0.001; its summary goes to stdout (`load > out.txt`)', async () => {
    const { profile, dir: d } = await start({ agencies: 2, read: 100_000, args: ['--latency-ms', '40'] });
    const run = await cli([
      'load',
      '--target',
      profile,
      '--search',
      'flights',
      '--duration',
      '2',
      '--connections',
      '4',
      '--threshold',
      'errors.rate<0.001',
      '--report-dir',
      d,
    ]);
    expect(run.code, failures(run)).toBe(0);
    expect(run.stdout).toMatch(/^load: \d+ requests in /m);
    expect(run.stdout).toMatch(/✓ errors\.rate<0\.001/);
    expect(run.stdout).toMatch(/reports: /);
    expect(run.stderr).not.toMatch(/^load: \d+ requests in /m);
  }, 60_000);

  it('a limiter refusing at 95% of the limit it announces is caught right after another load (exit 1); the merge names the failed verdicts', async () => {
    const { profile, dir: d } = await start({ agencies: 1, read: 40, args: ['--defects', 'throttle-at-95'] });
    const first = await cli([
      'load',
      '--target',
      profile,
      '--search',
      'flights',
      ...PAST_THE_LIMITS,
      '--connections',
      '2',
      '--report-dir',
      join(d, 'first'),
      '--json',
    ]);
    const second = await cli([
      'load',
      '--target',
      profile,
      '--search',
      'flights',
      ...PAST_THE_LIMITS,
      '--connections',
      '2',
      '--report-dir',
      join(d, 'second'),
      '--json',
    ]);
    expect(second.code, failures(second)).toBe(1);
    const report = JSON.parse(await readFile(join((JSON.parse(second.stdout) as LoadJson).report_dir, 'report.json'), 'utf8')) as {
      cases: Array<{ id: string; verdict: string }>;
    };
    expect(report.cases.filter((c) => c.verdict === 'FAIL').map((c) => c.id)).toContain('load:early-throttle:agency-load-001:read');

    const merged = await cli([
      'report',
      'merge',
      ...[first, second].map((r) => join((JSON.parse(r.stdout) as LoadJson).report_dir, 'report.json')),
      '-o',
      join(d, 'merged'),
    ]);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('FAIL load:early-throttle:agency-load-001:read');
    // Its 429s say 2 requests remain: the headers' verdict fails on the same answers.
    expect(merged.stdout).toMatch(/FAIL load:headers:agency-load-001:read: .* 429\(s\) said x-ratelimit-remaining was not 0/);
    expect(merged.stdout).toMatch(/✗ FAIL: 2 verdict\(s\) failed \(exit 1\)/);
  }, 60_000);
});
