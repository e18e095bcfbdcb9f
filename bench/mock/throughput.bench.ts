/**
 * Benchmark (not a test) of the mock's hot path: signed
 * `POST /v1/flights/search` on the mock, driven by the harness's signed
 * autocannon load (a fresh timestamp, nonce and HMAC per request), against a
 * bare `node:http` server answering a fixed JSON body under plain autocannon.
 * Both in one run, servers in child processes, alternating A/B/A/B so that
 * the machine's drift hits both alike.
 *
 *   npm run build && node --import tsx bench/mock/throughput.bench.ts [seconds=5] [connections=10] [rounds=2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { runAutocannonLoad } from '../../src/load/autocannon-load.js';
import { LoadRecorder } from '../../src/load/load-recorder.js';
import { WalletTally } from '../../src/load/wallet-reconciliation.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const ROUNDS = Number(process.argv[4] ?? 2);

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`child exited ${c}`)));
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

const mockFixture = join(tmpdir(), `bench-mock-fixture-${process.pid}.json`);
await writeFile(mockFixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
const mock = spawn(process.execPath, ['dist/src/cli/main.js', 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', mockFixture], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = JSON.parse(await firstLine(mock)) as { base_url: string; agencies: Array<{ agency_id: string; key_id: string; secret: string }> };
const body = JSON.stringify({ results: [{ result_id: 'res_0', product: 'flights', price: { amount: 12345, currency: 'EUR' }, quote_token: 'qt_x', quote_expires_at: '2026-11-21T10:15:00.000Z' }] });
const bare = spawn(process.execPath, ['-e', `const b=${JSON.stringify(body)};const s=require('http').createServer((q,r)=>{q.resume();q.on('end',()=>{r.setHeader('content-type','application/json');r.end(b)})});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const bareUrl = `http://127.0.0.1:${await firstLine(bare)}/v1/flights/search`;
const agency = { id: info.agencies[0]!.agency_id, keyId: info.agencies[0]!.key_id, secret: info.agencies[0]!.secret, limits: { read: 1e9, write: 1e6 } };
const criteria = JSON.stringify({ criteria: DEFAULT_PROFILE.search_criteria.flights });

async function bareRun(): Promise<Figures> {
  const r = await autocannon({ url: bareUrl, method: 'POST', body: criteria, headers: { 'content-type': 'application/json' }, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function mockRun(): Promise<Figures> {
  const recorder = new LoadRecorder();
  const t = Date.now();
  await runAutocannonLoad({
    profile: { ...DEFAULT_PROFILE, base_url: info.base_url },
    agencies: [agency],
    connections: CONNECTIONS,
    durationS: SECONDS,
    search: { product: 'flights' },
    recorder,
    wallet: new WalletTally(),
    now: Date.now,
  });
  const op = Object.values(recorder.figures().operations)[0]!;
  return { rps: op.count / ((Date.now() - t) / 1000), p50: op.latency.p50, p99: op.latency.p99, non2xx: op.count - op.ok };
}

try {
  await bareRun(); // warm-up of both servers and the client
  await mockRun();
  const rows: Array<[string, Figures, Figures]> = [];
  for (let i = 1; i <= ROUNDS; i++) rows.push([`round ${i}`, await bareRun(), await mockRun()]);
  console.log(`# ${SECONDS} s per run, ${CONNECTIONS} connections, Node ${process.version}\n`);
  console.log('| round | bare node:http rps | p50 ms | p99 ms | mock signed search rps | p50 ms | p99 ms | non-2xx | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [label, b, m] of rows) {
    console.log(`| ${label} | ${b.rps.toFixed(0)} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${m.non2xx} | ${(m.rps / b.rps).toFixed(3)} |`);
  }
  const sum = (k: 1 | 2) => rows.reduce((s, r) => s + r[k].rps, 0);
  console.log(`\nmock signed search / bare node:http, all rounds: ${(sum(2) / sum(1)).toFixed(3)}`);
} finally {
  mock.kill('SIGTERM');
  bare.kill('SIGTERM');
}
