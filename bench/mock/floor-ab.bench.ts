/**
 * Benchmark (not a test): the mock's server CPU per signed search over the
 * fastify floor's (C/F), for one or more builds of the mock side by side in
 * one sitting. Each round runs every arm (the floor, then each build) back to
 * back under the same signed load, in the reverse order every other round
 * (floor first, then last), so that the machine's drift within a round hits
 * the floor and the mock alike; CPU is read from `/proc/<pid>/stat` of each
 * server, not wall time. The figure is the median of the rounds' C/F (a
 * burst of other work on one arm of one round moves one round, not the
 * figure); the ratio of the rounds' sums is printed beside it. `npm run
 * bench` runs it with the default build and judges that median (issue 22's
 * goal: ≤ 2).
 *
 *   npm run build && node --import tsx bench/mock/floor-ab.bench.ts [seconds=3] [connections=10] [rounds=3] [entry…]
 *
 * Each `entry` is a mock build's CLI (default `dist/src/cli/main.js`); a copy
 * of an older `dist/` with `openapi/` beside it compares before and after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { firstLine } from '../_internal/first-line.js';
import { median } from '../_internal/median.js';
import { cpuPerSearch, signedSearch, type BenchAgency, type BenchServer } from '../_internal/signed-search.js';

const SECONDS = Number(process.argv[2] ?? 3);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const ROUNDS = Number(process.argv[4] ?? 3);
const ENTRIES = process.argv.length > 5 ? process.argv.slice(5) : ['dist/src/cli/main.js'];

type Server = BenchServer;

const fixture = join(tmpdir(), `bench-floor-ab-fixture-${process.pid}.json`);
await writeFile(fixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
const mockFlags = (process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const mocks: Server[] = [];
const children: ChildProcess[] = [];
let agency: BenchAgency | undefined;
try {
  for (const entry of ENTRIES) {
    const child = spawn(process.execPath, [...mockFlags, entry, 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', fixture], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const info = JSON.parse(await firstLine(child, (l) => l.startsWith('{'))) as {
      base_url: string;
      agencies: Array<{ agency_id: string; key_id: string; secret: string }>;
    };
    const a = info.agencies[0]!;
    agency = { id: a.agency_id, keyId: a.key_id, secret: a.secret, limits: { read: 1e9, write: 1e6 } };
    mocks.push({ label: entry, child, baseUrl: info.base_url });
  }
  const probe = await signedSearch(mocks[0]!.baseUrl, agency!);
  const answer = probe.text;
  if (probe.status !== 200) throw new Error(`probe search answered ${probe.status}: ${answer}`);
  const answerFile = join(tmpdir(), `bench-floor-ab-answer-${process.pid}.json`);
  await writeFile(answerFile, answer);
  const floorChild = spawn(process.execPath, ['bench/mock/fastify-floor.mjs', '--fixture', fixture, '--answer', answerFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(floorChild);
  const floor: Server = {
    label: 'floor',
    child: floorChild,
    baseUrl: (JSON.parse(await firstLine(floorChild, (l) => l.startsWith('{'))) as { base_url: string }).base_url,
  };

  /** Server CPU µs per signed search of one arm. */
  const run = (server: Server): Promise<number> => cpuPerSearch(server, agency!, SECONDS, CONNECTIONS);

  const arms = [floor, ...mocks];
  for (const s of arms) await run(s); // warm-up
  const load0 = loadavg()[0]!;
  const cpu: number[][] = arms.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [...arms.keys()] : [...arms.keys()].reverse();
    for (const i of order) cpu[i]!.push(await run(arms[i]!));
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  console.log(
    `# ${SECONDS} s per arm, ${CONNECTIONS} connections, ${ROUNDS} rounds, Node ${process.version}, load average (1 min) ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(`floor: ${cpu[0]!.map((x) => x.toFixed(1)).join(', ')} µs/req`);
  const figures = mocks.map((m, i) => {
    const c = cpu[i + 1]!;
    const ratios = c.map((x, r) => x / cpu[0]![r]!);
    const cf = { median: median(ratios), all: sum(c) / sum(cpu[0]!) };
    console.log(
      `${m.label}: ${c.map((x) => x.toFixed(1)).join(', ')} µs/req; C/F per round ${ratios.map((x) => x.toFixed(2)).join(', ')}; C/F ${cf.median.toFixed(2)} (median of rounds), ${cf.all.toFixed(2)} (all rounds)`,
    );
    return { ...cf, mockUs: sum(c) / c.length };
  });
  // One machine-readable line for `npm run bench` (bench/run-benches.ts): the first build's figures.
  const first = figures[0]!;
  console.log(
    `bench-figures ${JSON.stringify({
      ratios: { 'fastify floor CPU / mock CPU per signed search, same load (F/C; goal ≥ 0.5)': 1 / first.median },
      figures: {
        'mock server CPU per signed search / fastify floor (C/F; goal ≤ 2), median of rounds': first.median,
        'mock server CPU per signed search / fastify floor (C/F), all rounds': first.all,
        'mock server CPU per signed search, µs': first.mockUs,
        'fastify floor server CPU per request, same signed load, µs': sum(cpu[0]!) / cpu[0]!.length,
      },
    })}`,
  );
} finally {
  for (const c of children) c.kill('SIGTERM');
}
