/**
 * Benchmark (not a test): the whole suite, N times, against the bundled mock
 * running in a child process, in one of the three ways a target is met
 * (issue 10). Prints each run's wall time and every case that did not pass
 * or skip; the mock is correct, so any FAIL or ERROR is a false alarm.
 *
 *   node --import tsx bench/modes.bench.ts <mode> [runs=5]
 *
 * Modes:
 * - `local`   movable clock (`clock.control: mock-admin`), no latency;
 * - `latency` movable clock, every request to the mock (admin ones included)
 *             handled `LATENCY_MS` (default 25) ms late, like a staging
 *             service in another region;
 * - `real`    no clock control: real time, reference limits (60 s window,
 *             quotes living `QUOTE_LIFETIME_S`, default 60 s). Takes minutes a run.
 *
 * Every mode names `AGENCIES` agencies of the fixture (default 3, at most 4).
 * `TIMELINE=1` prints each case's start and end, and the plan's slots; `LIVE=1`
 * prints each case as it starts (a check with its agencies) and ends, what the
 * checks log, and the run's waits;
 * `PLAN_ONLY=1` (real time) prints the plan and its estimate and stops there.
 *
 * The mock runs from `dist/` when built (`MOCK_ENTRY` names another entry),
 * otherwise from the sources through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { createHarness } from '../src/harness.js';
import { agencyFromMock } from '../src/profile/agency-from-mock.js';

type Mode = 'local' | 'latency' | 'real';

interface MockLine {
  base_url: string;
  hotel_base_url: string;
  admin_url?: string;
  agencies: Array<{ agency_id: string; key_id: string; secret: string; webhook_secret: string; hotel_api_key: string; hotel_webhook_secret: string }>;
}

const mode = process.argv[2] as Mode;
const runs = Number(process.argv[3] ?? 5);
if (!['local', 'latency', 'real'].includes(mode) || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: node --import tsx bench/modes.bench.ts <local|latency|real> [runs=5]');
  process.exit(2);
}
const latencyMs = Number(process.env.LATENCY_MS ?? 25);
const quoteLifetimeS = Number(process.env.QUOTE_LIFETIME_S ?? 60);
/** Agencies of the mock's fixture the profile names, in every mode (the fixture has four). */
const agencyCount = Number(process.env.AGENCIES ?? 3);

function startMock(): Promise<{ child: ChildProcess; line: MockLine }> {
  const entry = process.env.MOCK_ENTRY ?? (existsSync('dist/src/cli/main.js') ? 'dist/src/cli/main.js' : undefined);
  const cli = entry ? [entry] : ['--import', 'tsx', 'src/cli/main.ts'];
  const args = ['mock', '--port', '0', '--hotel-port', '0', '--admin-port', '0', '--json'];
  if (mode !== 'real') args.push('--admin');
  if (mode === 'latency') args.push('--latency-ms', String(latencyMs));
  if (mode === 'real') args.push('--window-s', '60', '--quote-lifetime', String(quoteLifetimeS));
  const child = spawn(process.execPath, [...cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code} before listening`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      if (!text.startsWith('{')) return;
      child.removeAllListeners('exit');
      resolve({ child, line: JSON.parse(text) as MockLine });
    });
  });
}

function profileFor(line: MockLine): Record<string, unknown> {
  const agencies = line.agencies.slice(0, agencyCount).map((a) => agencyFromMock(a));
  return {
    base_url: line.base_url,
    hotel_base_url: line.hotel_base_url,
    clock: mode === 'real' ? { control: 'none' } : { control: 'mock-admin', admin_url: line.admin_url! },
    ...(mode === 'real' ? { limits: { window_s: 60 }, quotes: { lifetime_s: quoteLifetimeS } } : {}),
    agencies,
  };
}

const { child, line } = await startMock();
const rows: Array<{ wallMs: number; falseAlarms: number; summary: string }> = [];
const loadBefore = loadavg()[0]!;
try {
  for (let i = 1; i <= runs; i++) {
    const harness = createHarness({ profile: profileFor(line) });
    const stop = new AbortController();
    const t0 = performance.now();
    let plan = '';
    let slots: Array<{ id: string; agencies: number[]; startMs: number; endMs: number }> = [];
    try {
      const result = await harness.run({
        signal: stop.signal,
        onEvent: (e) => {
          if (e.type === 'plan' && e.estimateMs !== undefined) plan = ` (estimated ${Math.round(e.estimateMs / 1000)} s)`;
          if (e.type === 'plan') slots = e.slots ?? [];
          if (e.type === 'plan' && process.env.PLAN_ONLY) {
            console.log(`plan${plan}`);
            for (const p of [...slots].sort((a, b) => a.startMs - b.startMs))
              console.log(
                `  plan ${(p.startMs / 1000).toFixed(1).padStart(6)} → ${(p.endMs / 1000).toFixed(1).padStart(6)} s  ${p.id} on ${p.agencies.join(',')}`,
              );
            stop.abort();
          }
          // LIVE=1: each case as it starts and ends, s from the run's start.
          if (process.env.LIVE && (e.type === 'case-started' || e.type === 'case-finished')) {
            const at = ((performance.now() - t0) / 1000).toFixed(1).padStart(6);
            console.log(
              e.type === 'case-started'
                ? `${at} s  start ${e.id}${e.agencies ? ` on ${e.agencies.join(',')}` : ''}`
                : `${at} s  end   ${e.result.id} ${e.result.verdict}`,
            );
          }
          // LIVE=1: what the checks say as they work, and the run's waits.
          if (process.env.LIVE && (e.type === 'log' || e.type === 'waiting')) {
            const at = ((performance.now() - t0) / 1000).toFixed(1).padStart(6);
            console.log(e.type === 'log' ? `${at} s  log   ${e.id}: ${e.message}` : `${at} s  wait  ${Math.round(e.ms)} ms: ${e.reason}`);
          }
          if (process.env.LIVE && e.type === 'plan') console.log(`plan${plan}`);
        },
      });
      if (stop.signal.aborted) continue;
      const wallMs = Math.round(performance.now() - t0);
      const s = result.summary;
      const falseAlarms = s.FAIL + s.ERROR;
      const summary = `${s.PASS} pass, ${s.FAIL} fail, ${s.ERROR} error, ${s.WARN} warn, ${s.SKIP} skip`;
      rows.push({ wallMs, falseAlarms, summary });
      console.log(`run ${i}/${runs}: ${(wallMs / 1000).toFixed(1)} s${plan}, ${summary}, load average ${loadavg()[0]!.toFixed(2)}`);
      for (const c of result.cases) if (c.verdict !== 'PASS') console.log(`  ${c.id} ${c.verdict}: ${c.message.slice(0, 300)}`);
      // With TIMELINE, what each property says of its runs.
      if (process.env.TIMELINE)
        for (const c of result.cases) if (c.kind === 'property' && c.verdict === 'PASS') console.log(`  ${c.id}: ${c.message.slice(0, 300)}`);
      if (process.env.TIMELINE) {
        // The plan: each unit's slot as the estimate played it, and the agencies it played with.
        for (const p of [...slots].sort((a, b) => a.startMs - b.startMs))
          console.log(`  plan ${(p.startMs / 1000).toFixed(1).padStart(6)} → ${(p.endMs / 1000).toFixed(1).padStart(6)} s  ${p.id} on ${p.agencies.join(',')}`);
        // Each case's start and end, s from the run's start (target time, which is real time here).
        const start = Date.parse(result.startedAt);
        for (const c of [...result.cases].sort((a, b) => a.startedAt - b.startedAt)) {
          const from = (c.startedAt - start) / 1000;
          const trips = c.roundTrips === undefined ? '' : `  ${c.roundTrips} round trips of ${c.requests} requests`;
          console.log(
            `  ${from.toFixed(1).padStart(6)} → ${(from + c.durationMs / 1000).toFixed(1).padStart(6)} s  ${c.id} ${c.verdict} ${(c.durationMs / 1000).toFixed(2)} s${trips}`,
          );
        }
      }
    } finally {
      await harness.close();
    }
  }
} finally {
  child.kill('SIGTERM');
}
if (rows.length === 0) process.exit(0);
const walls = rows.map((r) => r.wallMs).sort((a, b) => a - b);
const alarms = rows.reduce((n, r) => n + r.falseAlarms, 0);
console.log(
  `${mode}${mode === 'latency' ? ` (${latencyMs} ms)` : ''}: ${runs} runs, false alarms ${alarms}, wall min ${(walls[0]! / 1000).toFixed(1)} s, median ${(walls[Math.floor(walls.length / 2)]! / 1000).toFixed(1)} s, max ${(walls.at(-1)! / 1000).toFixed(1)} s; load average ${loadBefore.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`,
);
