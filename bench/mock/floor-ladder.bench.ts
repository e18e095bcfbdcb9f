/**
 * Benchmark (not a test): the floor ladder. Server CPU per signed search of
 * four kinds of server under the same signed load, arms alternating within
 * every round (CPU from `/proc/<pid>/stat`, not wall time):
 *
 *  - F: the fastify floor (`fastify-floor.mjs`), fixed bytes;
 *  - F+auth: the floor verifying the request's signature, timestamp and
 *    nonce with `src/protocol/` (`fastify-ladder.ts --rung auth`);
 *  - F+auth+work: also parsing the JSON body and answering a body of the
 *    mock's shape and size, built with `JSON.stringify`, with fresh quote
 *    tokens tagged the way the mock tags them (`--rung work`);
 *  - C: the mock, one arm per build given (default `dist/src/cli/main.js`).
 *
 * What the protocol costs is F+auth+work − F; what the mock's own layers add
 * (route table, limiter, request log, ids, error handling, the pipeline's
 * objects) is C − (F+auth+work).
 *
 *   npm run build && node --import tsx bench/mock/floor-ladder.bench.ts [seconds=3] [connections=10] [rounds=3] [entry…]
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
type Agency = BenchAgency;

const children: ChildProcess[] = [];

/** Starts a server child and reads its `{"base_url", …}` line. */
async function start(label: string, args: string[]): Promise<Server & { agency: Agency }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const info = JSON.parse(await firstLine(child, (l) => l.startsWith('{'))) as {
    base_url: string;
    agencies: Array<{ agency_id: string; key_id: string; secret: string }>;
  };
  const a = info.agencies[0]!;
  return { label, child, baseUrl: info.base_url, agency: { id: a.agency_id, keyId: a.key_id, secret: a.secret, limits: { read: 1e9, write: 1e6 } } };
}

/** One signed search: its status and answer. */
const search = (server: Server, agency: Agency): Promise<{ status: number; text: string }> => signedSearch(server.baseUrl, agency);

try {
  const fixture = join(tmpdir(), `bench-floor-ladder-fixture-${process.pid}.json`);
  await writeFile(fixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
  const mockFlags = (process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const mocks: Server[] = [];
  let agency: Agency | undefined;
  for (const entry of ENTRIES) {
    const m = await start(entry, [...mockFlags, entry, 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', fixture]);
    agency = m.agency;
    mocks.push(m);
  }
  const probe = await search(mocks[0]!, agency!);
  if (probe.status !== 200) throw new Error(`probe search answered ${probe.status}: ${probe.text}`);
  const answerFile = join(tmpdir(), `bench-floor-ladder-answer-${process.pid}.json`);
  await writeFile(answerFile, probe.text);
  const toyArgs = ['--fixture', fixture, '--answer', answerFile];
  const floor = await start('F', ['bench/mock/fastify-floor.mjs', ...toyArgs]);
  const auth = await start('F+auth', ['--import', 'tsx', 'bench/mock/fastify-ladder.ts', '--rung', 'auth', ...toyArgs]);
  const work = await start('F+auth+work', ['--import', 'tsx', 'bench/mock/fastify-ladder.ts', '--rung', 'work', ...toyArgs]);
  const arms: Server[] = [floor, auth, work, ...mocks];
  for (const s of arms) {
    const p = await search(s, agency!);
    if (p.status !== 200) throw new Error(`${s.label}: probe search answered ${p.status}: ${p.text}`);
    console.log(`# ${s.label}: answer of ${Buffer.byteLength(p.text)} bytes`);
  }

  /** Server CPU µs per signed search of one arm. */
  const run = (server: Server): Promise<number> => cpuPerSearch(server, agency!, SECONDS, CONNECTIONS);

  for (const s of arms) await run(s); // warm-up
  const load0 = loadavg()[0]!;
  const cpu: number[][] = arms.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (const [i, s] of arms.entries()) cpu[i]!.push(await run(s));
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  console.log(
    `# ${SECONDS} s per arm, ${CONNECTIONS} connections, ${ROUNDS} rounds, Node ${process.version}, load average (1 min) ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
  );
  for (const [i, s] of arms.entries()) {
    const c = cpu[i]!;
    const ratios = c.map((x, r) => x / cpu[0]![r]!);
    console.log(
      `${s.label}: ${c.map((x) => x.toFixed(1)).join(', ')} µs/req (mean ${(sum(c) / c.length).toFixed(1)}); /F per round ${ratios.map((x) => x.toFixed(2)).join(', ')}; /F ${(sum(c) / sum(cpu[0]!)).toFixed(2)} (all rounds), ${median(ratios).toFixed(2)} (median of rounds)`,
    );
  }
  const mean = (i: number): number => sum(cpu[i]!) / ROUNDS;
  console.log(
    `rungs (µs/req, means): auth − F ${(mean(1) - mean(0)).toFixed(1)}; work − auth ${(mean(2) - mean(1)).toFixed(1)}; ${mocks
      .map((m, i) => `${m.label} − F+auth+work ${(mean(3 + i) - mean(2)).toFixed(1)}`)
      .join('; ')}`,
  );
  for (const [i, m] of mocks.entries()) {
    const c = cpu[3 + i]!;
    const ratios = c.map((x, r) => x / cpu[2]![r]!);
    console.log(`${m.label} / F+auth+work: ${(sum(c) / sum(cpu[2]!)).toFixed(2)} (all rounds), ${median(ratios).toFixed(2)} (median of rounds)`);
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
}
