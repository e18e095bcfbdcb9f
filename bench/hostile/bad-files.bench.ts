/**
 * Benchmark (not a test): time and peak memory of the CLI on each bad file of
 * issue 20 (crafted merge shards, FIFOs, links to /dev/zero, oversized files,
 * crafted certificates, a probe answered too large), each in its own process
 * under `/usr/bin/time -v`, killed at 30 s. Goal: every case ends within 30 s
 * with a peak RSS of at most 300 MB. A good merge and a good verification are
 * the baselines the times are divided by.
 *
 *   node --import tsx bench/hostile/bad-files.bench.ts
 *
 * Prints a Markdown table: case, exit, wall time, ratio to its baseline, peak RSS, first line of stderr.
 */
import { spawn } from 'node:child_process';
import { readFile, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { generateSigningKeyPair } from '../../src/certify/certificate/signing.js';
import { writeCertificate } from '../../src/certify/certificate/write-certificate.js';
import { fifo, GRANTED_DRAFT, histogramBomb, hugeRangeHistogram, put, shardReport, tempDir } from '../../test/hostile/_files.js';

const LIMIT_MS = 30_000;

interface Measure {
  exit: number | string;
  ms: number;
  rssMb: number;
  line: string;
}

/** Runs the CLI from the sources under /usr/bin/time -v; killed at 30 s. */
function measure(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Measure> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const status = /Exit status: (\d+)/.exec(stderr);
      const line =
        stderr
          .split('\n')
          .find((l) => l.trim() !== '' && !l.startsWith('\t') && !l.startsWith('Command'))
          ?.trim() ?? '';
      resolve({ exit: status ? Number(status[1]) : (signal ?? String(code)), ms, rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN, line });
    });
  });
}

const dir = tempDir('svc-bench-bad-files-');
const rows: Array<[string, string, Measure, number]> = [];
async function run(area: string, what: string, args: string[], baselineMs: number, env: NodeJS.ProcessEnv = {}): Promise<Measure> {
  const m = await measure(args, env);
  rows.push([area, what, m, baselineMs]);
  process.stderr.write(`${area} | ${what} | ${m.exit} | ${m.ms.toFixed(0)} ms | ${m.rssMb.toFixed(0)} MB\n`);
  return m;
}

const good2 = put(dir, 'shard2.json', JSON.stringify(shardReport(2)));
const shard1 = (name: string, edit: (json: string) => string): string => put(dir, name, edit(JSON.stringify(shardReport(1))));
const shard1With = (name: string, mutate: (l: Record<string, any>) => void): string => {
  const r = shardReport(1) as unknown as { load: Record<string, any> };
  mutate(r.load);
  return put(dir, name, JSON.stringify(r));
};
const merge = (file: string): string[] => ['report', 'merge', file, good2, '-o', path.join(dir, `out-${path.basename(file)}`)];

const mergeBase = await measure(merge(put(dir, 'shard1.json', JSON.stringify(shardReport(1)))));
rows.push(['baseline', 'report merge of two good shards', mergeBase, mergeBase.ms]);

const bigZeros = path.join(dir, 'zeros.json');
await writeFile(bigZeros, `[${'0,'.repeat(16 * 1024 * 1024 - 2)}0]`);
const deep = path.join(dir, 'deep.json');
await writeFile(deep, `${'['.repeat(16 * 1024 * 1024 - 1)}${']'.repeat(16 * 1024 * 1024 - 1)}`);
const sparse = path.join(dir, 'sparse.json');
await writeFile(sparse, '');
await truncate(sparse, 40 * 1024 * 1024);
await symlink('/dev/zero', path.join(dir, 'zero.json'));

const mergeCases: Array<[string, string]> = [
  ['`__proto__` key among the operations', shard1('proto.json', (j) => j.replace('"operations":{', '"operations":{"__proto__":{"count":1},'))],
  ['`constructor` key among the statuses', shard1('ctor.json', (j) => j.replace('"statuses":{', '"statuses":{"constructor":1,'))],
  ['count 1e308', shard1With('e308.json', (l) => (l.operations.all.count = 1e308))],
  ['count 1e400 (Infinity)', shard1('e400.json', (j) => j.replace(/"requests":\d+/, '"requests":1e400'))],
  ['count "NaN"', shard1With('nan.json', (l) => (l.totals.requests = 'NaN'))],
  ['negative count', shard1With('neg.json', (l) => (l.operations.search.ok = -5))],
  ['operations: null', shard1With('null-ops.json', (l) => (l.operations = null))],
  ['operations missing', shard1With('no-ops.json', (l) => delete l.operations)],
  ['no `all` operation', shard1With('no-all.json', (l) => delete l.operations.all)],
  ['series not a list', shard1With('series.json', (l) => (l.series = { 0: 1 }))],
  ['unknown verdict', shard1With('verdict.json', (l) => (l.verdicts = [{ id: 'x', kind: 'k', agency: 'a', verdict: 'MAYBE', message: '' }]))],
  ['shards: "1/2"', shard1With('shards-text.json', (l) => (l.shards = '1/2'))],
  ['shards: [{count: 1e9}]', shard1With('shards-1e9.json', (l) => (l.shards = [{ index: 1, count: 1e9 }]))],
  ['shard index beyond its count', shard1With('shard-index.json', (l) => (l.shards = [{ index: 3, count: 2 }]))],
  [
    'huge-range HDR histogram',
    shard1With('huge-range.json', (l) => {
      l.operations.search.histogram = hugeRangeHistogram([1e15, 1e15, 2e15]);
      l.operations.search.latency.count = 3;
    }),
  ],
  ['histogram not HDR', shard1With('not-hdr.json', (l) => (l.operations.all.histogram = Buffer.from('hello, histogram').toString('base64')))],
  ['histogram inflating to 200 MB', shard1With('bomb.json', (l) => (l.operations.all.histogram = histogramBomb(200 * 1024 * 1024)))],
  ['histogram count ≠ latency count', shard1With('count-mismatch.json', (l) => (l.operations.search.latency.count = 3))],
  ['counts not adding up', shard1With('sum.json', (l) => (l.operations.search.count = 999))],
  [
    'nesting 100 000 deep in a verdict',
    shard1('deep-verdict.json', (j) =>
      j.replace(
        '"verdicts":[]',
        `"verdicts":[{"id":"x","kind":"k","agency":"a","verdict":"PASS","message":"","details":{"d":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]`,
      ),
    ),
  ],
  ['not JSON', put(dir, 'garbage.json', '{"load": {"schema": "svc-harness/load@1", ')],
  ['no load result', put(dir, 'other.json', '{"runId": "x"}')],
  ['32 MiB of `[0,0,…]` (just under the cap)', bigZeros],
  ['32 MiB of `[[[…]]]` (16 M levels)', deep],
  ['40 MiB (sparse) shard', sparse],
  ['FIFO shard', fifo(dir, 'pipe.json')],
  ['shard linked to /dev/zero', path.join(dir, 'zero.json')],
];
for (const [what, file] of mergeCases) await run('report merge', what, merge(file), mergeBase.ms);

// Certificates.

let n = 0;
async function cert(sign: boolean): Promise<{ dir: string; pub: string }> {
  n += 1;
  const d = path.join(dir, `cert-${n}`);
  const keys = await generateSigningKeyPair(path.join(dir, `keys-${n}`));
  await writeCertificate(d, GRANTED_DRAFT, sign ? { signKey: await readFile(keys.privateKeyFile, 'utf8') } : {});
  return { dir: d, pub: keys.publicKeyFile };
}
const good = await cert(true);
const verifyBase = await measure(['verify-certificate', good.dir, '--public-key', good.pub]);
rows.push(['baseline', 'verify-certificate of a good signed certificate', verifyBase, verifyBase.ms]);
const v = (c: { dir: string; pub: string }, pin = true): string[] => ['verify-certificate', c.dir, ...(pin ? ['--public-key', c.pub] : [])];
await run('verify-certificate', 'forged unsigned GRANTED, no --public-key', v(await cert(false), false), verifyBase.ms);
await run('verify-certificate', 'self-signed, no --public-key', v(await cert(true), false), verifyBase.ms);
const other = await generateSigningKeyPair(path.join(dir, 'other-keys'));
await run(
  'verify-certificate',
  'self-signed, another key pinned',
  ['verify-certificate', (await cert(true)).dir, '--public-key', other.publicKeyFile],
  verifyBase.ms,
);
{
  const c = await cert(true);
  const e = path.join(c.dir, 'evidence', '01-CERT-01.json');
  await unlink(e);
  fifo(path.dirname(e), '01-CERT-01.json');
  await run('verify-certificate', 'listed evidence is a FIFO', v(c), verifyBase.ms);
}
{
  const c = await cert(true);
  await unlink(path.join(c.dir, 'certificate.html'));
  await symlink('/dev/zero', path.join(c.dir, 'certificate.html'));
  await run('verify-certificate', 'certificate.html linked to /dev/zero', v(c), verifyBase.ms);
}
{
  const c = await cert(true);
  await unlink(path.join(c.dir, 'certificate.json'));
  fifo(c.dir, 'certificate.json');
  await run('verify-certificate', 'certificate.json is a FIFO', v(c), verifyBase.ms);
}
{
  const c = await cert(true);
  await unlink(path.join(c.dir, 'certificate.sig'));
  await symlink('/dev/zero', path.join(c.dir, 'certificate.sig'));
  await run('verify-certificate', 'certificate.sig linked to /dev/zero', v(c), verifyBase.ms);
}
{
  const c = await cert(true);
  const e = path.join(c.dir, 'evidence', '01-CERT-01.json');
  await writeFile(e, '');
  await truncate(e, 65 * 1024 * 1024);
  await run('verify-certificate', 'listed evidence of 65 MiB (sparse)', v(c), verifyBase.ms);
}
await run('verify-certificate', '--public-key is a FIFO', ['verify-certificate', good.dir, '--public-key', fifo(dir, 'key.pem')], verifyBase.ms);

// Files of other commands (no baseline of their own: the merge's).
await run(
  'load',
  '--thresholds is a FIFO',
  ['load', '--thresholds', fifo(dir, 'gates.txt'), '--duration', '1', '--report-dir', path.join(dir, 'l1')],
  mergeBase.ms,
);
await run(
  'load',
  '--baseline is a FIFO',
  ['load', '--baseline', fifo(dir, 'baseline.json'), '--duration', '1', '--report-dir', path.join(dir, 'l2')],
  mergeBase.ms,
);
await run(
  'load',
  '--baseline linked to /dev/zero',
  ['load', '--baseline', path.join(dir, 'zero.json'), '--duration', '1', '--report-dir', path.join(dir, 'l3')],
  mergeBase.ms,
);
await run('certify', '--sign-key is a FIFO', ['certify', '--sign-key', fifo(dir, 'sign.pem'), '--report-dir', path.join(dir, 'c1')], mergeBase.ms);

// A probe answered with 40 MiB.
const chunk = Buffer.alloc(1 << 20, 0x61);
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const write = (): void => {
    while (i < 40) {
      i += 1;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('error', () => undefined);
  write();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const target = put(
  dir,
  'huge.yaml',
  `base_url: http://127.0.0.1:${(server.address() as AddressInfo).port}/v1\nhotel_base_url: null\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_HUGE_SECRET}\n`,
);
await run('run', 'probe answered with 40 MiB', ['run', '--target', target, '--only', 'AU-01,ER-01', '--report-dir', path.join(dir, 'r1')], mergeBase.ms, {
  T_HUGE_SECRET: 's',
});
server.closeAllConnections();
server.close();

process.stdout.write('| area | case | exit | time | × baseline | peak RSS | first line |\n|---|---|---|---|---|---|---|\n');
for (const [area, what, m, base] of rows) {
  process.stdout.write(
    `| ${area} | ${what} | ${m.exit} | ${(m.ms / 1000).toFixed(2)} s | ${(m.ms / base).toFixed(2)} | ${m.rssMb.toFixed(0)} MB | ${m.line
      .replace(/\|/g, '\\|')
      .replace(/\/tmp\/svc-bench-bad-files-\w+\//g, '')
      .slice(0, 110)} |\n`,
  );
}
const worst = rows.reduce((a, [, , m]) => ({ ms: Math.max(a.ms, m.ms), rss: Math.max(a.rss, m.rssMb) }), { ms: 0, rss: 0 });
process.stdout.write(`\n${rows.length - 2} bad-file cases; slowest ${(worst.ms / 1000).toFixed(2)} s, highest peak RSS ${worst.rss.toFixed(0)} MB\n`);
await rm(dir, { recursive: true, force: true });
