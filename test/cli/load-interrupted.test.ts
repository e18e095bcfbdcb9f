import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-entry.js';

/** Starts a long load, sends `signal` once its first progress line is out, and collects how it ended. */
async function interruptOnce(
  signal: 'SIGINT' | 'SIGTERM',
  dir: string,
  more: readonly string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...cliArgs(), 'load', '--agencies', '1', '--duration', '60', '--report-dir', dir, '--threshold', 'rps>=1', ...more], {
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // The first progress line says the load runs and the handlers are in place.
  await new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), /\d+ ?s/.test(stderr) && resolve())));
  child.kill(signal);
  return { code: await closed, stdout, stderr };
}

describe('svc-harness load, stopped by a signal', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: writes the report marked INTERRUPTED, says so, exits %i',
    async (signal, exit) => {
      const dir = await mkdtemp(join(tmpdir(), 'load-sig-'));
      try {
        const r = await interruptOnce(signal, dir);
        expect(r.code).toBe(exit);
        expect(r.stderr).toContain(`INTERRUPTED by ${signal}`);
        expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
        const report = JSON.parse(await readFile(join(dir, 'latest', 'report.json'), 'utf8')) as {
          verdict: string;
          load: { interrupted: boolean };
          notes: string[];
          cases: Array<{ id: string; verdict: string; message: string }>;
        };
        expect(report.verdict).toBe('INTERRUPTED');
        expect(report.load.interrupted).toBe(true);
        expect(report.notes[0]).toMatch(/^INTERRUPTED/);
        // No wallet is read after the stop: requests cut off by it may still be executing (a read then judged a wallet FAIL
        // that the same load, run to its end, reconciles), and a stopped load waits for no answer.
        const wallets = report.cases.filter((c) => c.id.startsWith('load:wallet:'));
        expect(wallets.length).toBeGreaterThan(0);
        for (const w of wallets) expect(w).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('a stopped load reads no wallet after it') });
        expect(await readFile(join(dir, 'latest', 'report.html'), 'utf8')).toContain('<strong>INTERRUPTED</strong>');
        expect(JSON.parse(await readFile(join(dir, 'latest.json'), 'utf8'))).toMatchObject({ verdict: 'INTERRUPTED' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it("SIGINT with a metrics receiver that never answers: the report is written and the outputs' last push is not waited for (it was, up to its 5 s timeout)", async () => {
    const held: ServerResponse[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    const dir = await mkdtemp(join(tmpdir(), 'load-sig-out-'));
    try {
      const r = await interruptOnce('SIGINT', dir, ['--out', `prometheus-rw=http://127.0.0.1:${port}/api/v1/write`]);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain("the outputs' last push was not done within 1 s: not waited for, since the run was stopped");
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(JSON.parse(await readFile(join(dir, 'latest', 'report.json'), 'utf8'))).toMatchObject({ verdict: 'INTERRUPTED' });
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
