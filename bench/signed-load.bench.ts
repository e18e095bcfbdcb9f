/**
 * Benchmark (not a test): the harness's signed load against the mock's
 * cheapest signed endpoint, next to plain autocannon against the same
 * endpoint, and both next to wrk on a bare node:http server, in one run.
 *
 *   node --import tsx bench/signed-load.bench.ts [seconds=5] [connections=10]
 *
 * The mock and the bare server run in child processes, so that the load
 * generator under test has its own event loop. The mock runs with very high
 * limits (no 429s) and the defect `nonce-unchecked`, so that plain autocannon
 * can repeat one pre-signed request and the service does the same work
 * (signature check, read, answer) for both clients.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { runAutocannonLoad } from '../src/load/generate/autocannon-load.js';
import { LoadRecorder } from '../src/load/measure/load-recorder.js';
import { WalletTally } from '../src/load/judge/wallet-reconciliation.js';
import { signRequest } from '../src/protocol/request-signature.js';
import { generateAgencies } from '../src/mock/fixture/generate-agencies.js';
import { DEFAULT_PROFILE } from '../src/profile/defaults.js';
import { cpuSeconds } from './_internal/cpu-seconds.js';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
const PATH = '/wallet/balance';

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (c) => reject(new Error(`child exited ${c}`)));
  });
}

async function startMock(): Promise<{ child: ChildProcess; baseUrl: string; agency: { keyId: string; secret: string; id: string } }> {
  const fixture = join(tmpdir(), `bench-fixture-${process.pid}.json`);
  await writeFile(fixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', fixture, '--defects', 'nonce-unchecked'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const info = JSON.parse(await firstLine(child)) as { base_url: string; agencies: Array<{ agency_id: string; key_id: string; secret: string }> };
  const a = info.agencies[0]!;
  return { child, baseUrl: info.base_url, agency: { id: a.agency_id, keyId: a.key_id, secret: a.secret } };
}

async function startBare(): Promise<{ child: ChildProcess; url: string }> {
  const code = "const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, url: `http://127.0.0.1:${await firstLine(child)}/` };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time (user + system) of this, the load-generating, process per request, µs. */
  clientUs?: number;
  /** CPU time of the server process per request, µs. */
  serverUs?: number;
}

/** Runs `arm`, adding the CPU time per request of this process and of `server`. */
async function withCpu(server: ChildProcess, arm: () => Promise<Figures & { requests: number }>): Promise<Figures> {
  const own0 = cpuSeconds(process.pid);
  const srv0 = cpuSeconds(server.pid!);
  const f = await arm();
  const n = Math.max(1, f.requests);
  return { ...f, clientUs: ((cpuSeconds(process.pid) - own0) * 1e6) / n, serverUs: ((cpuSeconds(server.pid!) - srv0) * 1e6) / n };
}

async function plain(url: string, headers?: Record<string, string>): Promise<Figures & { requests: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, requests: r.requests.total };
}

function wrk(url: string): Promise<Figures | string> {
  return new Promise((resolve) => {
    execFile('wrk', ['-t', '1', '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--latency', url], (err, out) => {
      if (err) return resolve(`wrk not available (${(err as NodeJS.ErrnoException).code ?? err.message})`);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const ms = (label: string) => {
        const m = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
        if (!m) return NaN;
        return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
      };
      resolve({ rps, p50: ms('50'), p99: ms('99'), non2xx: 0 });
    });
  });
}

async function harness(baseUrl: string, agency: { id: string; keyId: string; secret: string }): Promise<Figures & { requests: number }> {
  const recorder = new LoadRecorder({ rateLimitedStatus: 429 });
  const profile = { ...DEFAULT_PROFILE, base_url: baseUrl };
  const t = Date.now();
  await runAutocannonLoad({
    profile,
    agencies: [{ ...agency, limits: { read: 1e9, write: 1e9 } }],
    connections: CONNECTIONS,
    durationS: SECONDS,
    fixed: { op: 'balance', method: 'GET', path: PATH },
    recorder,
    wallet: new WalletTally({ rateLimitedStatus: 429 }),
    now: Date.now,
  });
  const secs = (Date.now() - t) / 1000;
  const op = recorder.figures().operations.balance!;
  return { rps: op.count / secs, p50: op.latency.p50, p99: op.latency.p99, non2xx: op.count - op.ok, requests: op.count };
}

const mock = await startMock();
const bare = await startBare();
try {
  const base = new URL(mock.baseUrl);
  const path = `${base.pathname}${PATH}`;
  const signed = signRequest({
    method: 'GET',
    path,
    keyId: mock.agency.keyId,
    secret: mock.agency.secret,
    timestamp: Math.floor(Date.now() / 1000),
    nonce: 'bench-static-nonce-0000000000000',
  }).headers;
  const rows: Array<[string, Figures | string]> = [];
  // Warm both servers up, then measure.
  await autocannon({ url: `${base.origin}${path}`, connections: CONNECTIONS, duration: 1, headers: signed });
  await harness(`${bare.url}v1`, mock.agency);
  rows.push(['plain autocannon, one pre-signed request, mock GET /v1/wallet/balance', await withCpu(mock.child, () => plain(`${base.origin}${path}`, signed))]);
  rows.push([
    'harness signed load (fresh nonce, timestamp, HMAC per request), same endpoint',
    await withCpu(mock.child, () => harness(mock.baseUrl, mock.agency)),
  ]);
  rows.push(['plain autocannon, bare node:http server', await withCpu(bare.child, () => plain(bare.url))]);
  rows.push(['harness signed load, bare node:http server (client cost alone)', await withCpu(bare.child, () => harness(`${bare.url}v1`, mock.agency))]);
  rows.push(['wrk, bare node:http server', await wrk(bare.url)]);
  // The harness's request bytes (path and signed headers) repeated by plain autocannon: what the bare server pays for the longer request, without the harness.
  rows.push([
    "plain autocannon, bare node:http server, one pre-signed request of the harness's size",
    await withCpu(bare.child, () => plain(`${bare.url}v1${PATH}`, signed)),
  ]);
  const [plainMock, harnessMock] = [rows[0]![1], rows[1]![1]] as [Figures, Figures];
  console.log(`# ${SECONDS} s per run, ${CONNECTIONS} connections, Node ${process.version}\n`);
  console.log('| run | requests/s | p50 ms | p99 ms | non-2xx | load generator CPU µs/req | server CPU µs/req |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const us = (x: number | undefined): string => (x === undefined ? '' : x.toFixed(1));
  for (const [label, f] of rows) {
    if (typeof f === 'string') console.log(`| ${label} | ${f} | | | | | |`);
    else console.log(`| ${label} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${f.non2xx} | ${us(f.clientUs)} | ${us(f.serverUs)} |`);
  }
  console.log(`\nharness signed / plain autocannon on the mock: ${(harnessMock.rps / plainMock.rps).toFixed(3)}`);
  const bareAc = rows[2]![1] as Figures;
  const bareHarness = rows[3]![1] as Figures;
  console.log(`harness signed / plain autocannon on the bare server: ${(bareHarness.rps / bareAc.rps).toFixed(3)}`);
  const w = rows[4]![1];
  if (typeof w !== 'string') {
    console.log(`plain autocannon / wrk on the bare server: ${(bareAc.rps / w.rps).toFixed(3)}`);
    console.log(`harness signed / wrk on the bare server: ${(bareHarness.rps / w.rps).toFixed(3)}`);
  }
  const sameSize = rows[5]![1] as Figures;
  console.log(`harness signed / plain autocannon with a request of the same size, bare server: ${(bareHarness.rps / sameSize.rps).toFixed(3)}`);
  console.log(
    `load generator CPU per request, bare server: harness ${us(bareHarness.clientUs)} µs, plain autocannon ${us(bareAc.clientUs)} µs (same-size request ${us(sameSize.clientUs)} µs)`,
  );
  // One machine-readable line for `npm run bench` (bench/run-benches.ts).
  console.log(
    `bench-figures ${JSON.stringify({
      ratios: {
        'harness signed load / plain autocannon, bare server': bareHarness.rps / bareAc.rps,
        'harness signed load / plain autocannon, same-size request, bare server': bareHarness.rps / sameSize.rps,
        'harness signed load / plain autocannon, mock': harnessMock.rps / plainMock.rps,
      },
      figures: {
        'load generator CPU per request, harness, bare server, µs': bareHarness.clientUs,
        'load generator CPU per request, plain autocannon, bare server, µs': bareAc.clientUs,
      },
    })}`,
  );
} finally {
  mock.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}
