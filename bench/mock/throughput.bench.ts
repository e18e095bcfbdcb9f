/**
 * Benchmark (not a test) of the mock's hot path: signed
 * `POST /v1/flights/search` on the mock, driven by the harness's signed
 * autocannon load (a fresh timestamp, nonce and HMAC per request), against a
 * bare `node:http` server answering a fixed JSON body. Two baselines, each
 * measured in every round:
 *  - plain autocannon against a bare server answering a small fixed body;
 *  - the same signed load generator against a bare server answering the very
 *    bytes the mock answers for this search (same client cost, same response
 *    size: the difference is the server alone).
 * Servers in child processes, arms alternating within each round so that the
 * machine's drift hits all alike. The mock against the fastify floor (C/F)
 * is `floor-ab.bench.ts`.
 *
 *   npm run build && node --import tsx bench/mock/throughput.bench.ts [seconds=5] [connections=10] [rounds=2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { runAutocannonLoad } from '../../src/load/generate/autocannon-load.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { WalletTally } from '../../src/load/judge/wallet-reconciliation.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { cpuSeconds } from '../_internal/cpu-seconds.js';
import { firstLine } from '../_internal/first-line.js';
import { signedSearch } from '../_internal/signed-search.js';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const ROUNDS = Number(process.argv[4] ?? 2);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Server CPU time (user + system) per answered request, µs: the figure a busy shared machine disturbs least. */
  cpuUs: number;
  /** This (load-generating) process's CPU time per request, µs. */
  clientUs: number;
}

const mockFixture = join(tmpdir(), `bench-mock-fixture-${process.pid}.json`);
await writeFile(mockFixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
// MOCK_NODE_FLAGS passes flags to the mock (e.g. `--cpu-prof`); MOCK_ENTRY runs another build of it (before/after comparisons).
const mockFlags = (process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const mock = spawn(
  process.execPath,
  [...mockFlags, process.env.MOCK_ENTRY ?? 'dist/src/cli/main.js', 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', mockFixture],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const info = JSON.parse(await firstLine(mock, (line) => line.startsWith('{'))) as {
  base_url: string;
  agencies: Array<{ agency_id: string; key_id: string; secret: string }>;
};
const body = JSON.stringify({
  results: [
    { result_id: 'res_0', product: 'flights', price: { amount: 12345, currency: 'EUR' }, quote_token: 'qt_x', quote_expires_at: '2026-11-21T10:15:00.000Z' },
  ],
});
const bare = spawn(
  process.execPath,
  [
    '-e',
    `const b=${JSON.stringify(body)};const s=require('http').createServer((q,r)=>{q.resume();q.on('end',()=>{r.setHeader('content-type','application/json');r.end(b)})});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`,
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const bareUrl = `http://127.0.0.1:${await firstLine(bare)}/v1/flights/search`;
const agency = { id: info.agencies[0]!.agency_id, keyId: info.agencies[0]!.key_id, secret: info.agencies[0]!.secret, limits: { read: 1e9, write: 1e6 } };
const criteria = JSON.stringify({ criteria: DEFAULT_PROFILE.search_criteria.flights });

// The mock's own answer to this search, served verbatim by a second bare server.
const probe = await signedSearch(info.base_url, agency);
const mockBody = probe.text;
if (probe.status !== 200) throw new Error(`probe search answered ${probe.status}: ${mockBody}`);
const sameBytes = spawn(
  process.execPath,
  [
    '-e',
    `const b=${JSON.stringify(mockBody)};const s=require('http').createServer((q,r)=>{q.resume();q.on('end',()=>{r.setHeader('content-type','application/json');r.end(b)})});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`,
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const sameBytesBase = `http://127.0.0.1:${await firstLine(sameBytes)}/v1`;

async function bareRun(): Promise<Figures> {
  const cpu0 = cpuSeconds(bare.pid!);
  const own0 = cpuSeconds(process.pid);
  const r = await autocannon({
    url: bareUrl,
    method: 'POST',
    body: criteria,
    headers: { 'content-type': 'application/json' },
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const cpuUs = ((cpuSeconds(bare.pid!) - cpu0) * 1e6) / r.requests.total;
  const clientUs = ((cpuSeconds(process.pid) - own0) * 1e6) / r.requests.total;
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, cpuUs, clientUs };
}

/** The signed load generator against `baseUrl`, the server process being `server`. */
async function signedRun(baseUrl: string, server: ChildProcess): Promise<Figures> {
  const recorder = new LoadRecorder({ rateLimitedStatus: 429 });
  const cpu0 = cpuSeconds(server.pid!);
  const own0 = cpuSeconds(process.pid);
  const t = Date.now();
  await runAutocannonLoad({
    profile: { ...DEFAULT_PROFILE, base_url: baseUrl },
    agencies: [agency],
    connections: CONNECTIONS,
    durationS: SECONDS,
    search: { product: 'flights' },
    recorder,
    wallet: new WalletTally({ rateLimitedStatus: 429 }),
    now: Date.now,
  });
  const seconds = (Date.now() - t) / 1000;
  const cpu = cpuSeconds(server.pid!) - cpu0;
  const own = cpuSeconds(process.pid) - own0;
  const op = Object.values(recorder.figures().operations)[0]!;
  const n = Math.max(1, op.count);
  return { rps: op.count / seconds, p50: op.latency.p50, p99: op.latency.p99, non2xx: op.count - op.ok, cpuUs: (cpu * 1e6) / n, clientUs: (own * 1e6) / n };
}

const mockRun = (): Promise<Figures> => signedRun(info.base_url, mock);
const sameBytesRun = (): Promise<Figures> => signedRun(sameBytesBase, sameBytes);

try {
  // Warm-up of the servers and the client.
  await bareRun();
  await sameBytesRun();
  await mockRun();
  const rows: Array<{ label: string; bare: Figures; same: Figures; mock: Figures }> = [];
  for (let i = 1; i <= ROUNDS; i++) rows.push({ label: `round ${i}`, bare: await bareRun(), same: await sameBytesRun(), mock: await mockRun() });
  const f = (x: Figures) => `${x.rps.toFixed(0)} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.cpuUs.toFixed(0)}`;
  console.log(`# ${SECONDS} s per run, ${CONNECTIONS} connections, Node ${process.version}, mock answer ${Buffer.byteLength(mockBody)} bytes\n`);
  console.log("A = plain autocannon, bare node:http, small fixed body; B = signed load, bare node:http answering the mock's bytes; C = signed load, mock\n");
  console.log(
    '| round | A rps | p50 ms | p99 ms | server CPU µs/req | B rps | p50 ms | p99 ms | server CPU µs/req | C rps | p50 ms | p99 ms | server CPU µs/req | C/A | C/B |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${f(r.bare)} | ${f(r.same)} | ${f(r.mock)} | ${(r.mock.rps / r.bare.rps).toFixed(3)} | ${(r.mock.rps / r.same.rps).toFixed(3)} |`,
    );
  }
  type Arm = 'bare' | 'same' | 'mock';
  const sum = (k: Arm, g: (x: Figures) => number = (x) => x.rps) => rows.reduce((acc, r) => acc + g(r[k]), 0);
  console.log(`\nmock signed search / plain autocannon on a bare server (C/A), all rounds: ${(sum('mock') / sum('bare')).toFixed(3)}`);
  console.log(
    `mock signed search / the same signed load on a bare server answering the same bytes (C/B), all rounds: ${(sum('mock') / sum('same')).toFixed(3)}`,
  );
  const mean = (k: Arm, g: (x: Figures) => number): string => (sum(k, g) / rows.length).toFixed(0);
  console.log(
    `server CPU per request, mean of rounds: A ${mean('bare', (x) => x.cpuUs)} µs, B ${mean('same', (x) => x.cpuUs)} µs, C ${mean('mock', (x) => x.cpuUs)} µs`,
  );
  console.log(
    `load generator CPU per request (this process): A ${mean('bare', (x) => x.clientUs)} µs, B ${mean('same', (x) => x.clientUs)} µs, C ${mean('mock', (x) => x.clientUs)} µs`,
  );
  // One machine-readable line for `npm run bench` (bench/run-benches.ts); figures, not ratios, are informative only.
  const meanOf = (k: Arm, g: (x: Figures) => number): number => sum(k, g) / rows.length;
  console.log(
    `bench-figures ${JSON.stringify({
      ratios: {
        'mock signed search / plain autocannon, bare server (C/A)': sum('mock') / sum('bare'),
        'mock signed search / same signed load, bare server, same bytes (C/B)': sum('mock') / sum('same'),
        'bare server CPU / mock CPU per request, same signed load (B/C)': meanOf('same', (x) => x.cpuUs) / meanOf('mock', (x) => x.cpuUs),
      },
      figures: {
        'mock server CPU per signed search, this bench, µs': meanOf('mock', (x) => x.cpuUs),
        'bare server CPU per request, same signed load, µs': meanOf('same', (x) => x.cpuUs),
        'bare server CPU per request, plain autocannon, µs': meanOf('bare', (x) => x.cpuUs),
      },
    })}`,
  );
} finally {
  mock.kill('SIGTERM');
  bare.kill('SIGTERM');
  sameBytes.kill('SIGTERM');
}
