/**
 * Benchmark (not a test): the release tools on large inputs (issue 33), each
 * command in its own process under `/usr/bin/time -v`, killed at 300 s:
 *
 * - `report trend` over 3 000 run folders, each the report.json of an hour's
 *   load (3 600 seconds of series, about 1 MB): peak RSS, goal under 300 MB;
 *   and the same with `--last 2`, which must read two runs, not 3 000;
 * - `report compare` of two loads of 3 000 operations each: goal under 5 s
 *   and under 300 MB of peak RSS.
 *
 *   node --import tsx bench/hostile/release-tools.bench.ts [--cli path/to/main.js]… [--only compare|trend] [--rounds N]
 *
 * `--cli` runs another build (the code before a change, built elsewhere) on
 * the same inputs; given twice or more, the builds take turns in each round
 * (ABBA: the first build first in odd rounds, last in even ones), so that a
 * before and an after are measured in the same sitting on the same machine
 * load. By default the build in dist/. `--only compare` skips the trend and
 * its 3.5 GB of inputs; `--rounds N` (default 1) runs each case N times and
 * reports the median. The inputs are written once into
 * $TMPDIR/svc-bench-release-tools/ and kept for the next sitting.
 * Prints a Markdown table: case, build, exit, wall time, CPU time, peak RSS
 * (medians, with the range over the rounds), first line of stderr, and the
 * load average at the start and the end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { renderJson } from '../../src/report/render-json.js';
import { longLoadRun, manyOperationsLoadRun, writeRunFolders } from '../../test/hostile/_reports.js';
import { median } from '../_internal/median.js';

const LIMIT_MS = 300_000;
const RUNS = 3000;
const OPERATIONS = 3000;

/** Every value given to `--name` on the command line. */
function flags(name: string): string[] {
  return process.argv.flatMap((a, i) => (a === name && i + 1 < process.argv.length ? [process.argv[i + 1]!] : []));
}
const clis = (flags('--cli').length > 0 ? flags('--cli') : ['dist/src/cli/main.js']).map((c) => path.resolve(c));
const only = flags('--only')[0];
const rounds = Math.max(1, Number(flags('--rounds')[0] ?? 1) || 1);

interface Measure {
  exit: number | string;
  wallS: number;
  cpuS: number;
  rssMb: number;
  line: string;
}

function measure(cli: string, args: string[]): Promise<Measure> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    // A group of its own: at the limit the command is killed with /usr/bin/time, which does not pass a signal on.
    const child = spawn('/usr/bin/time', ['-v', process.execPath, cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const status = /Exit status: (\d+)/.exec(stderr);
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const line =
        stderr
          .split('\n')
          .find((l) => l.trim() !== '' && !l.startsWith('\t') && !l.startsWith('Command'))
          ?.trim()
          .slice(0, 120) ?? '';
      resolve({
        exit: status ? Number(status[1]) : (signal ?? String(code)),
        wallS: (performance.now() - t0) / 1000,
        cpuS: Number(user?.[1] ?? NaN) + Number(sys?.[1] ?? NaN),
        rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
        line,
      });
    });
  });
}

const dir = path.join(tmpdir(), 'svc-bench-release-tools');
const runs = path.join(dir, 'runs');
const base = path.join(dir, 'compare', 'base.json');
const now = path.join(dir, 'compare', 'new.json');
if (only !== 'compare' && !existsSync(path.join(dir, 'ready'))) {
  console.error(`writing ${RUNS} run folders into ${dir} (once)…`);
  writeRunFolders(runs, RUNS, longLoadRun(3600));
  writeFileSync(path.join(dir, 'ready'), '');
}
if (only !== 'trend' && !existsSync(path.join(dir, 'compare', 'ready'))) {
  mkdirSync(path.join(dir, 'compare'), { recursive: true });
  console.error(`writing two loads of ${OPERATIONS} operations into ${dir}/compare (once, about a minute)…`);
  writeFileSync(base, renderJson(manyOperationsLoadRun(OPERATIONS, 12, 0)));
  writeFileSync(now, renderJson(manyOperationsLoadRun(OPERATIONS, 12, 3)));
  writeFileSync(path.join(dir, 'compare', 'ready'), '');
}

const cases: Array<[string, string[]]> = [
  ...(only === 'compare'
    ? []
    : ([
        [`report trend, ${RUNS} runs`, ['report', 'trend', runs, '-o', path.join(dir, 'out-trend')]],
        [`report trend --last 2, ${RUNS} runs`, ['report', 'trend', runs, '--last', '2', '-o', path.join(dir, 'out-trend-last')]],
      ] as Array<[string, string[]]>)),
  ...(only === 'trend'
    ? []
    : ([[`report compare, ${OPERATIONS} operations`, ['report', 'compare', base, now, '-o', path.join(dir, 'out-compare')]]] as Array<[string, string[]]>)),
];

const load = (): string =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');
const loadAtStart = load();
const measured = new Map<string, Measure[]>();
for (let round = 0; round < rounds; round++) {
  // ABBA: neither build always runs first (after a pause of the machine) or last.
  const order = round % 2 === 0 ? clis : [...clis].reverse();
  for (const [what, args] of cases)
    for (const cli of order) {
      const key = `${what}\u0000${cli}`;
      measured.set(key, [...(measured.get(key) ?? []), await measure(cli, args)]);
    }
}

const range = (xs: number[], digits: number): string => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : '');
console.log(`${rounds} round(s), Node ${process.version}; load average (1/5/15 min) ${loadAtStart} at start, ${load()} at end\n`);
for (const [i, cli] of clis.entries()) console.log(`build ${String.fromCharCode(65 + i)}: ${cli}`);
console.log('\n| case | build | exit | wall, median | CPU, median | peak RSS, median | stderr |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const [what] of cases)
  for (const [i, cli] of clis.entries()) {
    const ms = measured.get(`${what}\u0000${cli}`)!;
    const [wall, cpu, rss] = [ms.map((m) => m.wallS), ms.map((m) => m.cpuS), ms.map((m) => m.rssMb)];
    const exits = [...new Set(ms.map((m) => String(m.exit)))].join(', ');
    console.log(
      `| ${what} | ${String.fromCharCode(65 + i)} | ${exits} | ${median(wall).toFixed(2)} s${range(wall, 2)} | ${median(cpu).toFixed(2)} s${range(cpu, 2)} | ${median(rss).toFixed(0)} MB${range(rss, 0)} | ${ms[0]!.line.replace(/\|/g, '\\|')} |`,
    );
  }
