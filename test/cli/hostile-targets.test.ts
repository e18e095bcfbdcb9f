import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { runCli } from '../helpers/run-cli.js';

/** Terminal controls: C0 but tab and newline, DEL, C1, bidi controls. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Refuses everything with an error code (and message) full of terminal escapes. */
function hostileServer(): Server {
  return createServer((req, res) => {
    req.resume();
    const body = JSON.stringify({
      error: { code: 'BAD\u001b[2J\u001b]0;owned\u0007CODE\u202e\u009b31m', message: 'no\u001b[1A\rway\u0085', request_id: 'r-1' },
    });
    res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
    res.end(body);
  });
}

describe('a target that writes terminal escapes into its answers', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = hostileServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('reaches the console with none of them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-hostile-console-'));
    const file = join(dir, 'hostile.yaml');
    await writeFile(
      file,
      `base_url: http://127.0.0.1:${port}/v1\nhotel_base_url: null\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_HOSTILE_SECRET}\n`,
    );
    const { stdout, stderr } = await runCli(['run', '--target', file, '--only', 'AU-01,AU-02,ER-01', '--report-dir', join(dir, 'reports')], {
      T_HOSTILE_SECRET: 'hostile-secret',
    });
    // The code is quoted, only without its controls.
    expect(stdout).toContain('BADCODE');
    expect(stdout).not.toMatch(CONTROLS);
    expect(stderr).not.toMatch(CONTROLS);
  });
});

describe('a target whose body trickles in forever', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // Only the wallet rates trickle, as in the field; anything else (the reachability probe) answers at once.
    server = createServer((req, res) => {
      req.resume();
      if (!req.url?.includes('/wallet/rates')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"currency":"EUR"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('ends the run, writes the report and judges WL-05 with a clear message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-trickle-'));
    const file = join(dir, 'trickle.yaml');
    await writeFile(
      file,
      `base_url: http://127.0.0.1:${port}/v1\nhotel_base_url: null\nclock: {control: none}\nrequest_timeout_ms: 1000\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_TRICKLE_SECRET}\n`,
    );
    const t0 = Date.now();
    const { code, stdout, stderr } = await runCli(['run', '--target', file, '--only', 'WL-05', '--report-dir', join(dir, 'reports'), '--json'], {
      T_TRICKLE_SECRET: 'trickle-secret',
    });
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(code, stderr).toBe(1);
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { cases: { id: string; verdict: string; message: string }[]; report_dir: string };
    expect(out.cases[0]).toMatchObject({
      id: 'WL-05',
      verdict: expect.stringMatching(/^(ERROR|FAIL)$/),
      message: expect.stringContaining('no whole answer within 1000 ms'),
    });
    const report = JSON.parse(await readFile(join(out.report_dir, 'report.json'), 'utf8')) as { cases: { id: string; verdict: string }[] };
    expect(report.cases[0]!.id).toBe('WL-05');
  }, 40_000);
});

describe('a run that verifies nothing', () => {
  let mock: RunningMock;
  let html502: Server;
  let htmlPort: number;
  beforeAll(async () => {
    mock = await createMock({ admin: true });
    html502 = createServer((req, res) => {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    await new Promise<void>((r) => html502.listen(0, '127.0.0.1', r));
    htmlPort = (html502.address() as { port: number }).port;
  });
  afterAll(async () => {
    html502.closeAllConnections();
    await new Promise<void>((r) => html502.close(() => r()));
    await mock?.close();
  });

  it('is INCONCLUSIVE, exit 1, when a wrong secret leaves every idempotency check skipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-inconclusive-'));
    const file = join(dir, 'wrong-secret.yaml');
    await writeFile(
      file,
      `base_url: ${mock.baseUrl}\nhotel_base_url: null\nclock: {control: mock-admin, admin_url: "${mock.adminUrl}"}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_WRONG_SECRET}\n`,
    );
    const { code, stdout, stderr } = await runCli(['run', '--target', file, '--only', 'idempotency', '--report-dir', join(dir, 'reports')], {
      T_WRONG_SECRET: 'not-the-secret',
    });
    expect(code, stderr).toBe(1);
    expect(stdout).toMatch(/^INCONCLUSIVE: 0 passed/m);
    expect(stdout).toMatch(/^INCONCLUSIVE: no case passed/m);
    expect(stdout).not.toMatch(/^PASS:/m);
  });

  it('is INCONCLUSIVE, exit 1, and stops after AU-01 against a target answering 502 HTML to everything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-inconclusive-'));
    const file = join(dir, 'html502.yaml');
    await writeFile(
      file,
      `base_url: http://127.0.0.1:${htmlPort}/v1\nhotel_base_url: null\nclock: {control: none}\nagencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret_env: T_HTML_SECRET}\n`,
    );
    const { code, stdout, stderr } = await runCli(['run', '--target', file, '--only', 'AU-01,WL-05,ID-01', '--report-dir', join(dir, 'reports'), '--json'], {
      T_HTML_SECRET: 'html-secret',
    });
    expect(code, stderr).toBe(1);
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as {
      verdict: string;
      verdict_reason: string;
      cases: { id: string; verdict: string; message: string }[];
      report_dir: string;
    };
    expect(out.verdict).toBe('INCONCLUSIVE');
    expect(out.verdict_reason).toContain('AU-01');
    expect(out.cases.find((c) => c.id === 'AU-01')!.verdict).toBe('FAIL');
    for (const c of out.cases.filter((c) => c.id !== 'AU-01')) expect(c).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('baseline AU-01') });
    const report = JSON.parse(await readFile(join(out.report_dir, 'report.json'), 'utf8')) as { verdict: string; verdictReason: string };
    expect(report).toMatchObject({ verdict: 'INCONCLUSIVE', verdictReason: expect.stringContaining('AU-01') });
    expect(await readFile(join(out.report_dir, 'summary.md'), 'utf8')).toMatch(/^# .* INCONCLUSIVE/m);
    expect(await readFile(join(out.report_dir, 'junit.xml'), 'utf8')).toContain('<property name="verdict" value="INCONCLUSIVE"/>');
    expect(await readFile(join(out.report_dir, 'report.html'), 'utf8')).toContain('<strong>INCONCLUSIVE</strong>');
  });
});
