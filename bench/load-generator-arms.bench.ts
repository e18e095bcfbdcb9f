/**
 * Benchmark (not a test): where the harness's signed load spends its own
 * CPU, on a bare node:http server, by adding one piece at a time to plain
 * autocannon in this process. Two rounds, arms alternating:
 *  - plain:       plain autocannon;
 *  - static:      our request template, returned as is;
 *  - static-copy: the same, copied once;
 *  - sign:        a fresh timestamp, nonce and HMAC per request;
 *  - sign-copy:   the same, the bytes copied per request;
 *  - sign-listen: signing with no-op `headers` and `response` listeners;
 *  - sign-rec:    signing with the load recorder's `record()`;
 *  - harness:     `runAutocannonLoad` itself.
 *
 *   node --import tsx bench/load-generator-arms.bench.ts [seconds=3] [arms=plain,sign,sign-rec,harness]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { SignedTemplate } from '../src/load/generate/signed-template.js';
import { runAutocannonLoad } from '../src/load/generate/autocannon-load.js';
import { LoadRecorder } from '../src/load/measure/load-recorder.js';
import { WalletTally } from '../src/load/judge/wallet-reconciliation.js';
import { DEFAULT_PROFILE } from '../src/profile/defaults.js';
const secs = Number(process.argv[2] ?? 3);
const modes = (process.argv[3] ?? 'plain,static,sign,harness').split(',');
const code = "const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r));
const url = `http://127.0.0.1:${port}/`;
function tmpl() {
  return new SignedTemplate(
    { method: 'GET', path: '/v1/wallet/balance', host: `127.0.0.1:${port}`, keyId: 'key-agency-001', secret: 'secret-secret-secret' },
    Date.now,
  );
}
async function run(mode: string): Promise<number> {
  if (mode === 'harness') {
    const recorder = new LoadRecorder({ rateLimitedStatus: 429 });
    await runAutocannonLoad({
      profile: { ...DEFAULT_PROFILE, base_url: `${url}v1` },
      agencies: [{ id: 'a', keyId: 'k', secret: 's', limits: { read: 1e9, write: 1e9 } }] as any,
      connections: 10,
      durationS: secs,
      fixed: { op: 'balance', method: 'GET', path: '/wallet/balance' },
      recorder,
      wallet: new WalletTally({ rateLimitedStatus: 429 }),
      now: Date.now,
    });
    return recorder.requests;
  }
  const opts: any = { url, connections: 10, duration: secs };
  if (mode === 'static')
    opts.setupClient = (c: any) => {
      const t = tmpl();
      t.next();
      c.getRequestBuffer = () => t.buffer;
    };
  if (mode === 'static-copy')
    opts.setupClient = (c: any) => {
      const t = tmpl();
      t.next();
      const b = Buffer.from(t.buffer);
      c.getRequestBuffer = () => b;
    };
  if (mode === 'sign')
    opts.setupClient = (c: any) => {
      const t = tmpl();
      c.getRequestBuffer = () => t.next();
    };
  if (mode === 'sign-copy')
    opts.setupClient = (c: any) => {
      const t = tmpl();
      c.getRequestBuffer = () => Buffer.from(t.next());
    };
  if (mode === 'sign-listen')
    opts.setupClient = (c: any) => {
      const t = tmpl();
      c.getRequestBuffer = () => t.next();
      c.on('headers', (i: any) => {
        void i.statusCode;
      });
      c.on('response', (s: number) => {
        void s;
      });
    };
  if (mode === 'sign-rec') {
    const rec = new LoadRecorder({ rateLimitedStatus: 429 });
    opts.setupClient = (c: any) => {
      const t = tmpl();
      let t0 = 0;
      let sent = 0;
      c.getRequestBuffer = () => {
        sent = Date.now();
        t0 = performance.now();
        return t.next();
      };
      c.on('response', (s: number) => {
        rec.record({
          op: 'balance',
          method: 'GET',
          agency: 'a',
          bucket: 'read',
          sentAt: sent,
          receivedAt: Date.now() + 1,
          latencyMs: performance.now() - t0,
          status: s,
          retryAfterS: undefined,
          remaining: undefined,
          code: undefined,
          expected: false,
        });
      });
    };
  }
  const r = await autocannon(opts);
  return r.requests.total;
}
for (let round = 0; round < 2; round++)
  for (const m of modes) {
    const c0 = process.cpuUsage();
    const t0 = Date.now();
    const n = await run(m);
    const c = process.cpuUsage(c0);
    const s = (Date.now() - t0) / 1000;
    console.log(m.padEnd(12), String(n).padStart(7), 'req', (n / s).toFixed(0).padStart(6), 'rps', ((c.user + c.system) / n).toFixed(1), 'µs/req');
  }
child.kill();
