import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { cliArgs } from '../helpers/cli-entry.js';
import { adminRequest } from '../helpers/mock-client.js';

function run(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliArgs(), ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (onLine && stdout.includes('\n')) onLine(stdout.split('\n')[0]!, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('svc-harness mock', () => {
  test('--json prints exactly one JSON line once listening, serves, and exits cleanly on SIGTERM', async () => {
    let served = false;
    const result = await run(['mock', '--json', '--admin', '--port', '0', '--hotel-port', '0', '--admin-port', '0'], (line, kill) => {
      const info = JSON.parse(line);
      void adminRequest(`${info.admin_url}/health`).then((r) => {
        served = r.status === 200;
        kill();
      });
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const info = JSON.parse(lines[0]!);
    expect(Object.keys(info)).toEqual(['base_url', 'hotel_base_url', 'admin_url', 'agencies']);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(info.agencies.map((a: { key_id: string }) => a.key_id)).toEqual(['ak_alpha', 'ak_beta', 'ak_gamma', 'ak_delta']);
    expect(Object.keys(info.agencies[0])).toEqual(['agency_id', 'key_id', 'secret', 'webhook_secret', 'hotel_api_key', 'hotel_webhook_secret']);
    expect(served).toBe(true);
  });

  test('a taken port is a one-line error, exit 2', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    const result = await run(['mock', '--port', String(port), '--hotel-port', '0']);
    blocker.close();
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([`svc-harness: port ${port} (service) is already in use on 127.0.0.1`]);
  });

  test('a bad fixture is a one-line error, exit 2', async () => {
    const result = await run(['mock', '--port', '0', '--hotel-port', '0', '--fixture', 'test/mock/no-such-fixture.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('no-such-fixture.yaml');
  });

  test('--window-s and --latency-ms reach the mock: a wrong value of each is named in one line, exit 2', async () => {
    const result = await run(['mock', '--port', '0', '--hotel-port', '0', '--window-s', '0', '--latency-ms', '-5', '--headers-timeout-ms', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('windowS must be an integer from 1 to 86400, got 0');
    expect(result.stderr).toContain('latencyMs must be a number ≥ 0, got -5');
    expect(result.stderr).toContain('headersTimeoutMs must be an integer');
  });

  test('an unknown defect is a one-line error, exit 2', async () => {
    const result = await run(['mock', '--port', '0', '--hotel-port', '0', '--defects', 'fixed-window,bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^svc-harness: unknown defect "bogus"/);
  });
});
