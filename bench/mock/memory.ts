/**
 * Memory bound of the mock: 1 million signed requests spread over 1000
 * agencies, the mock's clock moved forward between batches so that window
 * entries, nonces and idempotency keys age out. Prints peak and final resident
 * memory of the mock process. Run: `npm run build && node --import tsx bench/mock/memory.ts [total]`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool, request } from 'undici';
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const BATCH = 100_000;
const INFLIGHT = 64;
const ADVANCE_MS = 25 * 3600 * 1000; // past idempotency retention (24 h), and so past nonces (600 s) and windows (60 s)

interface Line {
  base_url: string;
  admin_url: string;
  agencies: Array<{ agency_id: string; key_id: string; secret: string }>;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function main(): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      'dist/src/cli/main.js',
      'mock',
      '--port',
      '0',
      '--hotel-port',
      '0',
      '--admin',
      '--admin-port',
      '0',
      '--agencies',
      '997',
      '--json',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<Line>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)) as Line);
    });
    child.once('exit', (code) => reject(new Error(`mock exited ${code}`)));
  });
  const agencies = line.agencies;
  const base = new URL(line.base_url);
  const pool = new Pool(base.origin, { connections: 16 });
  let offsetMs = 0;
  const baseline = rssMb(child.pid!);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(child.pid!));
  }, 250);

  const statuses = new Map<number, number>();
  let sent = 0;
  const started = Date.now();
  const one = async (i: number): Promise<void> => {
    const a = agencies[i % agencies.length]!;
    const kind = i % 10;
    const method = kind < 7 ? 'GET' : 'POST';
    const path = kind < 7 ? `${base.pathname}/account` : kind < 9 ? `${base.pathname}/flights/search` : `${base.pathname}/flights/bookings`;
    const body =
      kind < 7
        ? ''
        : kind < 9
          ? '{"criteria":{"origin":"LIS","destination":"MAD","departure_date":"2027-03-14","adults":2}}'
          : `{"quote_token":"qt_bench_${i}","travellers":[{"first_name":"A","last_name":"B"}]}`;
    const sig = signRequest({
      method,
      path,
      body,
      keyId: a.key_id,
      secret: a.secret,
      timestamp: Math.floor((Date.now() + offsetMs) / 1000),
      nonce: freshNonce(),
    });
    const headers: Record<string, string> = { ...sig.headers };
    if (body) headers['content-type'] = 'application/json';
    if (kind === 9) headers['idempotency-key'] = `bench-${i}`;
    const res = await pool.request({ method: method as 'GET' | 'POST', path, headers, body: body || null });
    await res.body.dump();
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  };

  while (sent < TOTAL) {
    const end = Math.min(TOTAL, sent + BATCH);
    let next = sent;
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next < end) await one(next++);
      }),
    );
    sent = end;
    const adv = await request(`${line.admin_url}/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-admin': '1' },
      body: JSON.stringify({ ms: ADVANCE_MS }),
    });
    await adv.body.dump();
    offsetMs += ADVANCE_MS;
    process.stderr.write(`${sent} requests, rss ${rssMb(child.pid!).toFixed(1)} MB, peak ${peak.toFixed(1)} MB\n`);
  }
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const final = rssMb(child.pid!);
  await pool.close();
  child.kill('SIGTERM');
  console.log(
    JSON.stringify({
      requests: TOTAL,
      agencies: agencies.length,
      seconds: Math.round(seconds),
      rps: Math.round(TOTAL / seconds),
      rss_mb: { at_start: Math.round(baseline), peak: Math.round(peak), final: Math.round(final) },
      statuses: Object.fromEntries(statuses),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
