import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { loadAgainstSlowMock } from '../report/_helpers/latency-load.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });

interface RunJson {
  report_dir: string;
  cases: Array<{ id: string; verdict: string }>;
}

/** Runs the suite on the embedded mock (with defects) into `dir`; returns its --json summary. */
async function suite(dir: string, defects?: string): Promise<RunJson> {
  const r = await cli(['run', '--only', 'auth,ratelimit', '--report-dir', dir, '--json', ...(defects ? ['--mock-defects', defects] : [])]);
  expect(r.stderr).not.toMatch(/internal error/);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as RunJson;
}

describe('svc-harness report compare and report trend', () => {
  let dir: string;
  let clean: RunJson;
  let broken: RunJson;
  let fast: string;
  let slow: string;
  /** A latency gate the fast load passes and the slow one breaks: the fast load's median (a busy machine's own delay included) and half the added latency. */
  let gate: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'compare-cli-'));
    [clean, broken] = [await suite(join(dir, 'runs')), await suite(join(dir, 'runs'), 'fixed-window')];
    // Both mocks answer late, so that their timers, not the machine, set the latency: at full speed (0 ms) a busy CI run's
    // median spread so wide that 80 ms more stayed inside the noise, and nothing regressed. A machine busy with the heaviest
    // tests still stalls whole seconds: 1 s loads 40 and 120 ms late once read medians of 192 and 136 ms (rightly no
    // regression), and 3 s ones 94 ms (69–149) and 167 ms (139–240). 3 s loads 40 and 240 ms late stayed apart in 10 of 10
    // tries beside those tests (the fast median's interval at most 61–91 ms, the slow one's from 245 ms up).
    fast = (await loadAgainstSlowMock(40, join(dir, 'loads'), 3)).dir;
    slow = (await loadAgainstSlowMock(240, join(dir, 'loads'), 3)).dir;
    const fastP50 = (JSON.parse(await readFile(join(fast, 'report.json'), 'utf8')) as { load: { operations: { all: { latency: { p50: number } } } } }).load
      .operations.all.latency.p50;
    gate = `latency.p50<${Math.ceil(fastP50 + 100)}ms`;
  }, 240_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a clean run against a run with fixed-window exits 1 and names every newly failing case with both messages', async () => {
    const failing = broken.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.id);
    expect(failing).toContain('RL-04');
    const out = join(dir, 'cmp-suite');
    const r = await cli(['report', 'compare', clean.report_dir, broken.report_dir, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^REGRESSED: \d+ newly failing/m);
    const listed = r.stdout.slice(r.stdout.indexOf('newly failing ('));
    for (const id of failing) expect(listed).toMatch(new RegExp(`^  ${id} \\[\\w+\\] PASS → (FAIL|ERROR)`, 'm'));
    expect(listed).toMatch(/^ {6}base: .+\n {6}new: {2}.+/m);
    const md = await readFile(join(out, 'compare.md'), 'utf8');
    expect(md).toMatch(/^## ❌ Regressed/);
    for (const id of failing) expect(md).toContain(`\`${id}\``);
    const html = await readFile(join(out, 'compare.html'), 'utf8');
    for (const id of failing) expect(html).toContain(`id="case-${id}"`);
    // Self-contained: nothing is fetched.
    expect(html).not.toMatch(/(src|href)="https?:/);

    const json = await cli(['report', 'compare', join(clean.report_dir, 'report.json'), broken.report_dir, '-o', out, '--json']);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as {
      regressed: boolean;
      exit_code: number;
      cases: Array<{ id: string; change: string; base_message: string; new_message: string }>;
    };
    expect(parsed.exit_code).toBe(1);
    expect(
      parsed.cases
        .filter((c) => c.change === 'newly-failing')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...failing].sort());
  }, 60_000);

  it('a run against itself exits 0', async () => {
    const r = await cli(['report', 'compare', clean.report_dir, clean.report_dir, '-o', join(dir, 'cmp-self')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NO REGRESSION: nothing newly fails/m);
    const loads = await cli(['report', 'compare', slow, slow, '-o', join(dir, 'cmp-self-load')]);
    expect(loads.code).toBe(0);
    expect(loads.stdout).toMatch(/0 improvement/);
  }, 60_000);

  it('two loads with different latency show the change per operation in ms, and regress', async () => {
    const out = join(dir, 'cmp-load');
    const r = await cli(['report', 'compare', fast, slow, '-o', out, '--threshold', gate, '--json']);
    expect(r.code).toBe(1);
    const c = JSON.parse(r.stdout) as {
      load: { metrics: Array<{ metric: string; operation: string; outcome: string; change: number | null; regression: boolean }> };
      gates: Array<{ source: string; base_passed: boolean; new_passed: boolean; newly_broken: boolean }>;
    };
    const p50 = c.load.metrics.filter((m) => m.outcome === 'any' && m.metric.endsWith('.p50') && m.change !== null);
    // Every operation answered 200 ms later: its median moved by tens of ms at least, and the whole run's is a regression.
    // Its figures and intervals in the message: what a busy machine did to them is what a failure has to show.
    expect(
      p50.find((m) => m.operation === 'all'),
      JSON.stringify(p50.find((m) => m.operation === 'all')),
    ).toMatchObject({ regression: true });
    expect(p50.find((m) => m.operation === 'all')!.change).toBeGreaterThan(40);
    expect(c.gates).toEqual([expect.objectContaining({ source: gate, base_passed: true, new_passed: false, newly_broken: true })]);
    const text = await cli(['report', 'compare', fast, slow, '-o', out]);
    // Per operation, BASE → NEW and the change in ms (a loaded machine may move a p95 either way; the median follows the 200 ms).
    // Figures group thousands with a space (`1 024.5 ms`).
    const v = String.raw`\d[\d .]*`;
    expect(text.stdout).toMatch(
      new RegExp(String.raw`^ {2}search: p50 ${v} ms → ${v} ms \([+−]${v} ms, [+−]${v}%\); p95 ${v} ms → ${v} ms \([+−]${v} ms`, 'm'),
    );
    expect(text.stdout).toMatch(new RegExp(String.raw`^ {2}every operation: p50 ${v} ms → ${v} ms \(\+${v} ms`, 'm'));
    const html = await readFile(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('search: latency by percentile, BASE vs NEW');
    expect(html).toContain('data-series="BASE"');
  }, 60_000);

  it('refuses what cannot be compared in one line, exit 2', async () => {
    const notReport = join(dir, 'not-a-report.json');
    await writeFile(notReport, '{"name":"x"}');
    const cases: Array<[string[], RegExp]> = [
      [[join(dir, 'missing.json'), clean.report_dir], /cannot read run .*missing\.json: no such file or folder/],
      [[notReport, clean.report_dir], /not-a-report\.json is not a run report of the harness/],
      [[clean.report_dir, fast], /cannot compare a suite run \(.*\) with a load run \(.*\): both runs must be of the same kind/],
      [[clean.report_dir, broken.report_dir, '--max-regression', 'latency=fast'], /--max-regression latency must be a percentage/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['report', 'compare', ...args, '-o', join(dir, 'cmp-bad')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);

  it('report trend over three runs draws a page of charts, each with a series and labelled axes', async () => {
    const out = join(dir, 'trend');
    const r = await cli(['report', 'trend', join(dir, 'runs'), fast, '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/trend over 3 run\(s\)/);
    const page = await readFile(join(out, 'trend.html'), 'utf8');
    expect(page).not.toMatch(/(src|href)="https?:/);
    const figures = page.match(/<figure class="chart[^"]*">[\s\S]*?<\/figure>/g) ?? [];
    const titles = figures.map((f) => /<figcaption>([^<]*)<\/figcaption>/.exec(f)?.[1]);
    expect(titles).toEqual(
      expect.arrayContaining([
        // The runs are of two targets (the embedded mock, and a mock in another process): a chart for each.
        'ratelimit · reference (embedded mock): cases per run',
        expect.stringMatching(/^ratelimit under load · mock-40ms \(http:\/\/127\.0\.0\.1:\d+\/v1\): cases per run$/),
        'Run duration',
        'Load: p95 latency per operation',
        'Load: throughput',
      ]),
    );
    for (const f of figures) {
      expect(f.match(/<svg/g)).toHaveLength(1);
      const series = [...f.matchAll(/<polyline class="series" data-series="[^"]*"[^>]* points="([^"]*)"/g)].map((m) => m[1]!);
      expect(series.length).toBeGreaterThan(0);
      expect(series.some((pts) => pts.trim() !== '')).toBe(true);
      expect(/<text class="x-title"[^>]*>([^<]+)<\/text>/.exec(f)?.[1]).toBe('run, by start time (UTC)');
      expect(/<text class="y-title"[^>]*>([^<]+)<\/text>/.exec(f)?.[1]).toMatch(/cases|duration \(s\)|p95 latency \(ms\)|throughput \(requests per second\)/);
    }
    const last = await cli(['report', 'trend', join(dir, 'runs'), fast, '--last', '2', '-o', out, '--json']);
    expect((JSON.parse(last.stdout) as { runs: Array<{ run_id: string }> }).runs.map((x) => x.run_id)).toEqual(
      [broken.report_dir, fast].map((d) => d.split('/').at(-1)),
    );
    const empty = await cli(['report', 'trend', join(dir, 'trend')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/holds no run folder/);
  }, 60_000);
});
