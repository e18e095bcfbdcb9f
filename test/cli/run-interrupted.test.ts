import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, DEFAULT_FIXTURE, type RunningMock } from '../../src/mock/index.js';
import { realTimeTarget } from '../helpers/real-time-suite.js';
import { cliArgs } from '../helpers/cli-entry.js';

/*
 * `svc-harness run` stopped by a signal, in real time: a mock in this process
 * (the CLI's target in another) whose clock the harness cannot move, with a
 * 2 s rate-limit window and 5 s quotes, so that the run has cases finished and
 * cases waiting when the signal comes.
 */
describe('svc-harness run, stopped by a signal', () => {
  let mock: RunningMock;
  let dir: string;
  let profile: string;

  beforeAll(async () => {
    const fixture = {
      agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: Math.ceil(a.limits.read / 5), write: Math.ceil(a.limits.write / 2) } })),
    };
    mock = await createMock({ fixture, windowS: 2, quoteLifetimeS: 5, webhookBaseMs: 200, webhookFactor: 3, admin: false });
    dir = await mkdtemp(join(tmpdir(), 'run-sig-'));
    profile = join(dir, 'target.json');
    const target = { name: 'real-time mock', ...realTimeTarget(mock) };
    await writeFile(profile, JSON.stringify(target));
  });
  afterAll(async () => {
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts a real-time run, sends `signal` once two cases have finished, and collects how it ended. */
  async function interruptOnce(signal: 'SIGINT' | 'SIGTERM', reports: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [...cliArgs(), 'run', '--target', profile, '--report-dir', reports, '--only', 'AU-01,QT-01,properties'], {
      env: { ...process.env, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Two verdict lines on stdout: the run is under way, and the properties (paced by the rate limit, many seconds) are still to come.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', () => {
        if ((stdout.match(/^(PASS|FAIL|WARN|SKIP|ERROR) /gm) ?? []).length >= 2) resolve();
      });
      child.on('close', () => resolve());
    });
    child.kill(signal);
    return { code: await closed, stdout, stderr };
  }

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: writes every report marked INTERRUPTED, the finished cases kept and the others listed as not run, exits %i',
    async (signal, exit) => {
      const reports = join(dir, signal);
      const r = await interruptOnce(signal, reports);
      expect(r.code, r.stderr).toBe(exit);
      expect(r.stderr).toContain(`${signal} received`);
      expect(r.stdout).toContain(`INTERRUPTED by ${signal}`);
      expect(r.stdout + r.stderr).not.toMatch(/internal error|\n\s+at /);
      const latest = join(reports, 'latest');
      const report = JSON.parse(await readFile(join(latest, 'report.json'), 'utf8')) as {
        verdict: string;
        notes: string[];
        cases: Array<{ id: string; verdict: string; message: string }>;
      };
      expect(report.verdict).toBe('INTERRUPTED');
      expect(report.notes[0]).toMatch(/^INTERRUPTED/);
      // What finished keeps its verdict; what did not is a SKIP that says so.
      const notRun = report.cases.filter((c) => /^not (run|finished): the run was interrupted/.test(c.message));
      const judged = report.cases.filter((c) => !notRun.includes(c));
      expect(judged.length, JSON.stringify(report.cases.map((c) => [c.id, c.verdict, c.message]))).toBeGreaterThanOrEqual(2);
      expect(notRun.length).toBeGreaterThanOrEqual(1);
      for (const c of notRun) expect(c.verdict).toBe('SKIP');
      expect(await readFile(join(latest, 'report.html'), 'utf8')).toContain('<strong>INTERRUPTED</strong>');
      expect(await readFile(join(latest, 'junit.xml'), 'utf8')).toMatch(/<property name="verdict" value="INTERRUPTED"/);
      expect(await readFile(join(latest, 'summary.md'), 'utf8')).toMatch(/^# \S+ INTERRUPTED/);
      expect(JSON.parse(await readFile(join(reports, 'latest.json'), 'utf8'))).toMatchObject({ verdict: 'INTERRUPTED' });
    },
    60_000,
  );
});
