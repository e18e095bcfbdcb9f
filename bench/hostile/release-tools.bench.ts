/**
 * Benchmark (not a test): the release tools on large inputs (issue 33), each
 * command in its own process under `/usr/bin/time -v`, killed at 300 s:
 *
 * - `report trend` over 3 000 run folders, each the report.json of an hour's
 *   load (3 600 seconds of series, about 1 MB): peak RSS, goal under 300 MB;
 *   and the same with `--last 2`, which must read two runs, not 3 000;
 * - `report compare` of two loads of 3 000 operations each: time, goal under 5 s.
 *
 *   node --import tsx bench/hostile/release-tools.bench.ts [--cli path/to/main.js]
 *
 * `--cli` runs another build (the code before a change, built elsewhere) on
 * the same inputs; by default the build in dist/. The inputs are written once
 * into $TMPDIR/svc-bench-release-tools/ and kept for the next sitting.
 * Prints a Markdown table: case, exit, wall time, CPU time, peak RSS, first line of stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderJson } from '../../src/report/render-json.js';
import { longLoadRun, manyOperationsLoadRun, writeRunFolders } from '../../test/hostile/_reports.js';

const LIMIT_MS = 300_000;
const RUNS = 3000;
const OPERATIONS = 3000;

const cliAt = process.argv.indexOf('--cli');
const cli = path.resolve(cliAt > 0 ? process.argv[cliAt + 1]! : 'dist/src/cli/main.js');

interface Measure {
  exit: number | string;
  wallS: number;
  cpuS: number;
  rssMb: number;
  line: string;
}

function measure(args: string[]): Promise<Measure> {
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
if (!existsSync(path.join(dir, 'ready'))) {
  mkdirSync(path.join(dir, 'compare'), { recursive: true });
  console.error(`writing ${RUNS} run folders and two loads of ${OPERATIONS} operations into ${dir} (once)…`);
  writeRunFolders(runs, RUNS, longLoadRun(3600));
  writeFileSync(base, renderJson(manyOperationsLoadRun(OPERATIONS, 12, 0)));
  writeFileSync(now, renderJson(manyOperationsLoadRun(OPERATIONS, 12, 3)));
  writeFileSync(path.join(dir, 'ready'), '');
}

const rows: Array<[string, Measure]> = [];
rows.push([`report trend, ${RUNS} runs`, await measure(['report', 'trend', runs, '-o', path.join(dir, 'out-trend')])]);
rows.push([`report trend --last 2, ${RUNS} runs`, await measure(['report', 'trend', runs, '--last', '2', '-o', path.join(dir, 'out-trend-last')])]);
rows.push([`report compare, ${OPERATIONS} operations`, await measure(['report', 'compare', base, now, '-o', path.join(dir, 'out-compare')])]);

console.log(`build: ${cli}\n`);
console.log('| case | exit | wall | CPU | peak RSS | stderr |');
console.log('|---|---:|---:|---:|---:|---|');
for (const [what, m] of rows)
  console.log(`| ${what} | ${m.exit} | ${m.wallS.toFixed(1)} s | ${m.cpuS.toFixed(1)} s | ${m.rssMb.toFixed(0)} MB | ${m.line.replace(/\|/g, '\\|')} |`);
