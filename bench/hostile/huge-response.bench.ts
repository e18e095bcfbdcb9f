/**
 * Benchmark (not a test): the harness's peak memory when a target answers a
 * huge body. A local proxy forwards everything to the embedded mock except
 * the wallet rates, which it answers with a valid JSON body of SIZE_MB; the
 * harness runs `run --only WL-05` against it in a child process, and the
 * child's peak resident memory (VmHWM from /proc/<pid>/status, polled) is the
 * figure. Goal: at most 300 MB for a 100 MB answer.
 *
 *   npm run build && node --import tsx bench/hostile/huge-response.bench.ts [sizeMb=100]
 *
 * Also prints the exit code, the WL-05 verdict and the size of report.json.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createMock } from '../../src/mock/index.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';

const SIZE_MB = Number(process.argv[2] ?? 100);
const CLI = 'dist/src/cli/main.js';

/** Streams `{"base":"EUR","rates":{"USD":1.08},"pad":"aaaa…"}` of about `bytes` bytes without building it. */
function answerHuge(res: ServerResponse, bytes: number): void {
  const head = Buffer.from('{"base":"EUR","rates":{"USD":1.08},"pad":"');
  const tail = Buffer.from('"}');
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const padBytes = Math.max(0, bytes - head.length - tail.length);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': head.length + padBytes + tail.length });
  res.write(head);
  let left = padBytes;
  const pump = (): void => {
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  res.on('error', () => undefined);
  pump();
}

async function forward(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.connection;
  const up = await request(`${origin}${req.url}`, {
    method: req.method as 'GET',
    headers: headers as Record<string, string>,
    body: chunks.length ? Buffer.concat(chunks) : null,
  });
  const body = Buffer.from(await up.body.arrayBuffer());
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
  res.writeHead(up.statusCode, out).end(body);
}

function peakRss(pid: number, onSample: (kb: number) => void): NodeJS.Timeout {
  return setInterval(() => {
    readFile(`/proc/${pid}/status`, 'utf8')
      .then((s) => {
        const m = /VmHWM:\s+(\d+) kB/.exec(s);
        if (m) onSample(Number(m[1]));
      })
      .catch(() => undefined);
  }, 25);
}

async function main(): Promise<void> {
  const mock = await createMock();
  const mockOrigin = new URL(mock.baseUrl).origin;
  const proxy = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0]!.endsWith('/wallet/rates')) return answerHuge(res, SIZE_MB * 1024 * 1024);
    forward(req, res, mockOrigin).catch(() => res.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const dir = await mkdtemp(join(tmpdir(), 'bench-huge-'));
  const a = mock.agencies[0]!;
  const profile = {
    name: 'huge-response',
    base_url: mock.baseUrl.replace(mockOrigin, proxyOrigin),
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' },
    agencies: [agencyFromMock(a, { limits: false })],
  };
  await writeFile(join(dir, 'target.json'), JSON.stringify(profile));
  try {
    let peakKb = 0;
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [CLI, 'run', '--only', 'WL-05', '--target', join(dir, 'target.json'), '--report-dir', join(dir, 'reports'), '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const timer = peakRss(child.pid!, (kb) => (peakKb = Math.max(peakKb, kb)));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    let reportBytes = -1;
    let verdict = '?';
    try {
      const latest = JSON.parse(await readFile(join(dir, 'reports', 'latest.json'), 'utf8')) as { dir: string };
      const file = join(dir, 'reports', latest.dir, 'report.json');
      reportBytes = (await stat(file)).size;
      const report = JSON.parse(await readFile(file, 'utf8')) as { cases: { id: string; verdict: string; message: string }[] };
      const c = report.cases.find((x) => x.id === 'WL-05');
      verdict = c ? `${c.verdict}: ${c.message}` : 'no WL-05 case';
    } catch (err) {
      verdict = `no report (${(err as Error).message})`;
    }
    console.log(
      `huge response ${SIZE_MB} MB: exit ${code}, ${seconds.toFixed(1)} s, peak RSS ${(peakKb / 1024).toFixed(0)} MB (goal <= 300 MB), report.json ${(reportBytes / 1024).toFixed(0)} KiB`,
    );
    console.log(`WL-05 ${verdict}`);
    if (stderr.trim()) console.log(`stderr: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    if (!stdout.trim() && code !== 0) console.log('no JSON summary on stdout');
  } finally {
    proxy.closeAllConnections();
    proxy.close();
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
