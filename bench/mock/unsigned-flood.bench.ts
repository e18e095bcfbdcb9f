/**
 * Memory bound of the mock under a flood of large unsigned bodies (issue 11
 * item 4): 800 POSTs of 1 MiB, all answered 401, then the admin request log
 * listed. Runs the built mock as a child process, samples its resident memory
 * every 50 ms and prints the peak. Goal: at most 300 MB.
 * Run: `npm run build && node --import tsx bench/mock/unsigned-flood.bench.ts [count] [concurrency]`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool, request } from 'undici';

const COUNT = Number(process.argv[2] ?? 800);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const BODY = Buffer.alloc(1024 * 1024, 0x7b);

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'mock', '--port', '0', '--hotel-port', '0', '--admin', '--admin-port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<{ base_url: string; admin_url: string }>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)) as { base_url: string; admin_url: string });
    });
    child.once('exit', (code) => reject(new Error(`mock exited ${code}`)));
  });
  const base = new URL(line.base_url);
  const pool = new Pool(base.origin, { connections: CONCURRENCY });
  const baseline = rssMb(child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 50);
  const statuses = new Map<number, number>();
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < COUNT) {
        next += 1;
        const res = await pool.request({
          path: `${base.pathname}/flights/bookings`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: BODY,
        });
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    }),
  );
  const floodMs = Date.now() - started;
  const listing = await request(`${line.admin_url}/requests`, { headers: { 'x-svc-admin': '1' } });
  const listed = Buffer.from(await listing.body.arrayBuffer());
  peak = Math.max(peak, rssMb(child.pid!));
  clearInterval(sampler);
  const entries = listing.statusCode === 200 ? (JSON.parse(listed.toString('utf8')) as { requests: unknown[] }).requests.length : 0;
  process.stdout.write(
    `${COUNT} unsigned POSTs of 1 MiB in ${floodMs} ms, answers ${JSON.stringify(Object.fromEntries(statuses))}\n` +
      `mock RSS: baseline ${baseline.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, final ${rssMb(child.pid!).toFixed(0)} MB\n` +
      `GET /__admin/requests: ${listing.statusCode}, ${(listed.length / 1024 / 1024).toFixed(1)} MB, ${entries} entries\n`,
  );
  await pool.close();
  child.kill('SIGTERM');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
