/**
 * The regression guard of the benchmarks (`npm run bench`; never a timed
 * unit test): runs the mock's throughput bench, the mock against the
 * fastify floor (`floor-ab`: paired rounds of 2 s per arm, the median of the
 * rounds' C/F) and the signed-load bench briefly, and the real-time suite once (its wall time against the estimate
 * it announced), prints their ratios next to `bench/baseline.json`, rewrites
 * the generated section of `bench/RESULTS.md` with this run's figures and load
 * average, and exits 1 with a line starting `BENCH REGRESSION` when a ratio
 * fell more than 15% below its accepted value.
 *
 *   npm run bench                       # brief runs (3 s per arm, 3 rounds; 8 paired rounds against the floor)
 *   npm run bench -- --seconds 5 --rounds 5 --pairs 12
 *   npm run bench -- --accept           # this run's ratios become the baseline
 *
 * Only ratios against a baseline measured in the same run are compared: the
 * machine is shared, and absolute figures (requests per second, CPU µs per
 * request) move with its load; they are printed, never judged. The
 * throughput bench alternates its arms within each round and adds the
 * rounds up; the signed-load bench runs once per round and the guard judges
 * the median of its rounds: one 3 s arm caught by another process's burst
 * once read 1.13 for a ratio whose other runs read 0.70 to 0.84.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { median } from './_internal/median.js';

/** A ratio may fall this far below its accepted value before the guard fails. */
const TOLERANCE = 0.15;
const BASELINE = 'bench/baseline.json';
const RESULTS = 'bench/RESULTS.md';
const BEGIN = '<!-- npm run bench: generated section, do not edit -->';
const END = '<!-- end of generated section -->';

interface BenchFigures {
  ratios: Record<string, number>;
  figures: Record<string, number | undefined>;
}

interface Baseline {
  accepted: string;
  loadAverage: string;
  ratios: Record<string, number>;
}

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    /** Rounds of the mock against the fastify floor (2 s per arm). */
    pairs: { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
    accept: { type: 'boolean', default: false },
  },
});

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

/** Runs one bench script, echoing its output, and returns its `bench-figures` line. */
function runBench(script: string, args: string[]): Promise<BenchFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      process.stdout.write(chunk);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('bench-figures '));
      if (code !== 0 || line === undefined) reject(new Error(`${script} exited ${code} without its figures`));
      else resolve(JSON.parse(line.slice('bench-figures '.length)) as BenchFigures);
    });
  });
}

/** Each ratio and figure as the median of the rounds that have it. */
function medianFigures(rounds: readonly BenchFigures[]): BenchFigures {
  const of = (pick: (r: BenchFigures) => Record<string, number | undefined>): Record<string, number> => {
    const names = new Set(rounds.flatMap((r) => Object.keys(pick(r))));
    const out: Record<string, number> = {};
    for (const name of names) {
      const xs = rounds.map((r) => pick(r)[name]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
      if (xs.length > 0) out[name] = median(xs);
    }
    return out;
  };
  return { ratios: of((r) => r.ratios), figures: of((r) => r.figures) };
}

function readBaseline(): Baseline | undefined {
  try {
    return JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline;
  } catch {
    return undefined;
  }
}

const startedAt = new Date().toISOString();
const loadBefore = load();
console.log(`npm run bench: ${startedAt}, Node ${process.version}, load average (1/5/15 min) ${loadBefore}\n`);
const throughput = await runBench('bench/mock/throughput.bench.ts', [values.seconds, values.connections, values.rounds]);
console.log('');
const againstFloor = await runBench('bench/mock/floor-ab.bench.ts', ['2', values.connections, values.pairs]);
console.log('');
const signedRounds: BenchFigures[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  console.log('');
  signedRounds.push(await runBench('bench/signed-load.bench.ts', [values.seconds, values.connections]));
}
const signed = medianFigures(signedRounds);
console.log('');
// How close a real-time run comes to its announced estimate (once: the run itself takes some 15 s of real waits).
const realTime = await runBench('bench/real-time-estimate.bench.ts', ['1']);
const loadAfter = load();

const ratios = { ...throughput.ratios, ...againstFloor.ratios, ...signed.ratios, ...realTime.ratios };
const figures = { ...throughput.figures, ...againstFloor.figures, ...signed.figures, ...realTime.figures };
const baseline = readBaseline();
const rows: string[] = [];
const regressions: string[] = [];
for (const [name, value] of Object.entries(ratios)) {
  const accepted = baseline?.ratios[name];
  const floor = accepted === undefined ? undefined : accepted * (1 - TOLERANCE);
  const fell = floor !== undefined && value < floor;
  if (fell)
    regressions.push(
      `BENCH REGRESSION: ${name} = ${value.toFixed(3)}, more than ${TOLERANCE * 100}% below the accepted ${accepted!.toFixed(3)} (floor ${floor.toFixed(3)})`,
    );
  rows.push(`| ${name} | ${value.toFixed(3)} | ${accepted?.toFixed(3) ?? '—'} | ${fell ? '**fell**' : accepted === undefined ? 'new' : 'ok'} |`);
}
const figureRows = Object.entries(figures).map(([name, v]) => `| ${name} | ${v === undefined ? '—' : v.toFixed(v < 10 ? 2 : 1)} |`);

const section = [
  BEGIN,
  '## Latest `npm run bench`',
  '',
  `Run ${startedAt}, ${values.seconds} s per arm, ${values.connections} connections, ${values.rounds} round(s) of each bench (throughput: rounds added up; signed load: median of rounds), ${values.pairs} rounds of 2 s per arm against the fastify floor (median of the rounds' C/F), Node ${process.version}.`,
  `Load average (1/5/15 min): ${loadBefore} at start, ${loadAfter} at end.`,
  baseline
    ? `Baseline: \`bench/baseline.json\`, accepted ${baseline.accepted} (load average ${baseline.loadAverage}); a ratio more than ${TOLERANCE * 100}% below it fails the run.`
    : 'No baseline yet.',
  '',
  '| ratio (same run) | this run | baseline | |',
  '|---|---:|---:|---|',
  ...rows,
  '',
  "| figure (moves with the machine's load; not judged) | value |",
  '|---|---:|',
  ...figureRows,
  END,
].join('\n');

console.log(`\n${section.split('\n').slice(1, -1).join('\n')}\n`);
const results = readFileSync(RESULTS, 'utf8');
const at = results.indexOf(BEGIN);
const until = results.indexOf(END);
const updated =
  at !== -1 && until > at ? `${results.slice(0, at)}${section}${results.slice(until + END.length)}` : results.replace(/^(# .*\n)/, `$1\n${section}\n`);
writeFileSync(RESULTS, updated);
console.log(`${RESULTS}: generated section rewritten`);

if (values.accept) {
  const rounded = Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, Number(v.toFixed(3))]));
  const next: Baseline = { accepted: startedAt, loadAverage: `${loadBefore} → ${loadAfter}`, ratios: rounded };
  writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`${BASELINE}: this run's ratios accepted as the baseline`);
} else if (regressions.length > 0) {
  for (const line of regressions) console.log(line);
  console.log(`(a busy machine lowers ratios too: rerun on a quiet one before hunting; accept a deliberate change with \`npm run bench -- --accept\`)`);
  process.exitCode = 1;
}
