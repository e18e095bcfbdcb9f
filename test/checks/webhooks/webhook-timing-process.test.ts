import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { startMockProcess, type MockProcess } from '../../helpers/mock-process.js';

/*
 * WH-05's retry delays and the learned schedule, against a mock in another
 * process with a schedule of its own, set against the mock's own delivery log
 * (`GET /__admin/webhooks/deliveries`): with its clock moved through the admin
 * API, and in real time.
 */

let mock: MockProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

interface RunReport {
  notes: string[];
  cases: Array<{ id: string; details?: { gapsMs?: number[] } }>;
}

/** The gaps between the attempts of the one event the mock delivered, by its log. */
async function loggedGaps(adminUrl: string): Promise<number[]> {
  const res = await fetch(`${adminUrl}/webhooks/deliveries`, { headers: { 'x-svc-admin': '1' } });
  const { deliveries } = (await res.json()) as { deliveries: Array<{ attempt: number; at_ms: number }> };
  const at = deliveries.sort((a, b) => a.attempt - b.attempt).map((d) => d.at_ms);
  expect(at).toHaveLength(3);
  return [at[1]! - at[0]!, at[2]! - at[1]!];
}

async function runWh05(o: { base: number; factor: number; adminClock: boolean; profileSchedule?: string }): Promise<{ report: RunReport; logged: number[] }> {
  dir = await mkdtemp(join(tmpdir(), 'wh-timing-'));
  mock = await startMockProcess(dir, {
    agencies: 1,
    limits: { read: 100, write: 20 },
    args: ['--webhook-base', String(o.base), '--webhook-factor', String(o.factor)],
  });
  const profile = await mock.profile(dir, 60, { adminClock: o.adminClock, extra: o.profileSchedule ?? '' });
  const run = await runCli(['run', '--target', profile, '--only', 'WH-05', '--report-dir', join(dir, 'reports')]);
  expect([0, 1], `${run.stdout}\n${run.stderr}`).toContain(run.code);
  const report = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'report.json'), 'utf8')) as RunReport;
  return { report, logged: await loggedGaps(mock.adminUrl) };
}

function gapsOf(report: RunReport): number[] {
  return report.cases.find((c) => c.id === 'WH-05')?.details?.gapsMs ?? [];
}

describe('webhook retry delays against a mock in another process, on the clock its deliveries are scheduled by', () => {
  it('with its clock moved: each delay and the learned base and factor within 250 ms of the mock’s own log', async () => {
    // The profile keeps the reference schedule (5 s × 3): the run learns the mock's 2 s × 2 and says so.
    const { report, logged } = await runWh05({ base: 2000, factor: 2, adminClock: true });
    expect(logged).toEqual([2000, 4000]);
    const gaps = gapsOf(report);
    expect(gaps).toHaveLength(2);
    // Once the clock moves, each attempt still travels to the receiver in real time, and is stamped on the target's clock as the
    // harness follows it (the moved time plus the real time since): on a busy machine one gap read 159 ms off the log. The error
    // this test exists for was a whole second (4.0 s measured for 5.0 s).
    gaps.forEach((g, i) => expect(Math.abs(g - logged[i]!)).toBeLessThanOrEqual(250));
    const note = report.notes.find((n) => n.includes('retried webhooks after'));
    const m = /after (\d+) ms, then ([\d.]+) times longer/.exec(note ?? '');
    expect(m, report.notes.join('\n')).not.toBeNull();
    const base = Number(m![1]);
    expect(Math.abs(base - logged[0]!)).toBeLessThanOrEqual(250);
    expect(Math.abs(base * Number(m![2]) - logged[1]!)).toBeLessThanOrEqual(250);
  });

  it('in real time: each delay within 250 ms of the mock’s own log', async () => {
    // A short schedule keeps the real wait to about 12 s.
    const { report, logged } = await runWh05({ base: 1000, factor: 2, adminClock: false, profileSchedule: 'webhooks: {base_ms: 1000, factor: 2}' });
    expect(logged).toEqual([1000, 2000]);
    const gaps = gapsOf(report);
    expect(gaps).toHaveLength(2);
    // The log holds the delays the mock scheduled; in real time its timers fire late on a busy machine (113 ms once beside two CPU
    // hogs). The error this test exists for was a whole second (4.0 s measured for 5.0 s).
    gaps.forEach((g, i) => expect(Math.abs(g - logged[i]!)).toBeLessThanOrEqual(250));
  });
});
