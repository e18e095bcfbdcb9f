/**
 * Benchmark (not a test): what pushing the figures while a load runs costs
 * the load. One sitting, rounds of two arms back to back, the order reversed
 * every other round (ABBA), against one mock in another process:
 *  - bare:    `svc-harness load --search …` with no output;
 *  - outputs: the same with `--out prometheus-rw=…` and `--out otlp=…`
 *             (a real Prometheus when the machine has one, else a local
 *             receiver answering 204; a local OTLP receiver answering 200).
 * Per arm: the load process's CPU per request while the load ran (user +
 * system, sampled every 50 ms, between the report's startedAt and finishedAt:
 * start-up, module loading and the report's writing left out) and the p99
 * the load saw of the mock's answers. The figures are the medians of the
 * rounds' outputs/bare ratios.
 *
 *   npm run build && node --import tsx bench/outputs-cost.bench.ts [seconds=8] [rounds=6]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadRunResult } from '../src/results/run-result.js';
import { startMockProcess } from '../test/helpers/mock-process.js';

const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 6);
const dir = await mkdtemp(path.join(tmpdir(), 'outputs-cost-'));
const load0 = loadavg();

/** A receiver answering every POST with `status`, counting them. */
async function receiver(status: number): Promise<{ url: string; posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts += 1;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Debian's Prometheus with its remote-write receiver, when installed. */
async function startPrometheus(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  if (!existsSync('/usr/bin/prometheus')) return undefined;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await writeFile(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\n');
  const child = spawn(
    '/usr/bin/prometheus',
    [`--config.file=${dir}/prometheus.yml`, `--storage.tsdb.path=${dir}/tsdb`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `${url}/api/v1/write`,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// The load process writes its own CPU use when it exits.
const cpuHook = path.join(dir, 'cpu-hook.mjs');
await writeFile(
  cpuHook,
  [
    "import { writeFileSync } from 'node:fs';",
    'const samples = [];',
    'const take = () => { const c = process.cpuUsage(); samples.push([Date.now(), c.user + c.system]); };',
    'setInterval(take, 50).unref();',
    "process.on('exit', () => { take(); writeFileSync(process.env.CPU_OUT, JSON.stringify(samples)); });",
    '',
  ].join('\n'),
);

/*
 * PIN=1 (a machine of 2 CPUs or more): the mock, Prometheus, the receivers and
 * this script on CPU 1, each load on CPU 0, so that the two arms do not trade
 * a CPU with the service they measure.
 */
const pin = process.env.PIN === '1';
if (pin) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

const mock = await startMockProcess(dir, { agencies: 10, limits: { read: 1_000_000, write: 1_000_000 } });
const profile = await mock.profile(dir, 60);
const prom = await startPrometheus();
const promFallback = prom ? undefined : await receiver(204);
const otlp = await receiver(200);
const promUrl = prom?.url ?? `${promFallback!.url}/api/v1/write`;

interface Arm {
  cpuUsPerRequest: number;
  p99: number;
  requests: number;
}

async function arm(outputs: boolean, n: number): Promise<Arm> {
  const cpuOut = path.join(dir, `cpu-${n}-${outputs ? 'o' : 'b'}.json`);
  const args = [
    'dist/src/cli/main.js',
    'load',
    '--target',
    profile,
    '--search',
    'flights',
    '--connections',
    '10',
    '--duration',
    String(seconds),
    '--graceful-stop',
    '1',
    '--report-dir',
    path.join(dir, 'reports'),
    '--json',
    ...(outputs ? ['--out', `prometheus-rw=${promUrl}`, '--out', `otlp=${otlp.url}/v1/metrics`] : []),
  ];
  const child = spawn(pin ? 'taskset' : process.execPath, pin ? ['-c', '0', process.execPath, ...args] : args, {
    env: { ...process.env, CI: '1', CPU_OUT: cpuOut, NODE_OPTIONS: `--import ${cpuHook}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise((r) => child.on('close', r));
  if (/failed|internal error/.test(err)) process.stderr.write(err);
  const summary = JSON.parse(out.trim()) as { report_dir: string };
  const report = JSON.parse(await readFile(path.join(summary.report_dir, 'report.json'), 'utf8')) as LoadRunResult;
  const samples = JSON.parse(await readFile(cpuOut, 'utf8')) as Array<[number, number]>;
  // CPU at an instant: the last sample at or before it.
  const cpuAt = (t: number): number => samples.filter(([at]) => at <= t).at(-1)?.[1] ?? 0;
  const requests = report.load.totals.requests;
  const cpuUs = cpuAt(report.load.finishedAt) - cpuAt(report.load.startedAt);
  return { cpuUsPerRequest: cpuUs / requests, p99: report.load.operations['all']!.latency.p99, requests };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const lines: string[] = [];
const cpuRatios: number[] = [];
const p99Ratios: number[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [false, true] : [true, false];
    const got: Record<string, Arm> = {};
    for (const o of order) got[o ? 'outputs' : 'bare'] = await arm(o, r);
    const b = got['bare']!;
    const o = got['outputs']!;
    cpuRatios.push(o.cpuUsPerRequest / b.cpuUsPerRequest);
    p99Ratios.push(o.p99 / b.p99);
    const line = `| ${r + 1} | ${order.map((x) => (x ? 'outputs' : 'bare')).join(' then ')} | ${b.requests} | ${o.requests} | ${b.cpuUsPerRequest.toFixed(1)} | ${o.cpuUsPerRequest.toFixed(1)} | ${(o.cpuUsPerRequest / b.cpuUsPerRequest).toFixed(3)} | ${b.p99.toFixed(2)} | ${o.p99.toFixed(2)} | ${(o.p99 / b.p99).toFixed(3)} |`;
    lines.push(line);
    process.stdout.write(`${line}\n`);
  }
} finally {
  await mock.stop();
  await prom?.stop();
  await promFallback?.close();
  await otlp.close();
}
const load1 = loadavg();
process.stdout.write(
  [
    '',
    `${seconds} s per arm, ${rounds} rounds (ABBA), signed searches over 10 connections against a mock in another process; remote write to ${prom ? 'a real Prometheus 2.42' : 'a local receiver'}, OTLP to a local receiver (${otlp.posts()} requests received); Node ${process.version}.`,
    `${pin ? 'Pinned (PIN=1): each load on CPU 0, the mock, Prometheus and the receivers on CPU 1. ' : ''}Load average (1/5/15 min): ${load0.map((x) => x.toFixed(2)).join(' / ')} at start, ${load1.map((x) => x.toFixed(2)).join(' / ')} at end.`,
    '',
    '| round | order | requests bare | requests outputs | CPU µs/request bare | outputs | ratio | p99 ms bare | outputs | ratio |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    `Median of the rounds: generator CPU per request outputs/bare **${median(cpuRatios).toFixed(3)}**, p99 outputs/bare **${median(p99Ratios).toFixed(3)}**.`,
    '',
  ].join('\n'),
);
await rm(dir, { recursive: true, force: true });
