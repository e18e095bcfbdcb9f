/*
 * `svc-harness load` against targets whose Retry-After no one should wait
 * out: a node:http server that admits the limit, then answers every search
 * 429 with an absurd Retry-After, and answers the harness's wallet reads as
 * each test asks. A Retry-After beyond the window is a verdict, not a wait;
 * a wait within the window gives way to the first signal, which writes the
 * report (INTERRUPTED) and exits 130 or 143 within 2 s.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-entry.js';

const LIMIT = 5;

/**
 * How the target answers the harness's wallet reads: `n` counts the reads of
 * that kind so far (0 for the first). `silent`: never answered (the harness
 * waits for the request timeout, unless a signal stops it).
 */
type WalletAnswer = (kind: 'balance' | 'statement', n: number) => { status: 200 } | { status: 429; retryAfter: string } | { status: 'silent' };

interface Hostile {
  /** Retry-After of the searches refused past the limit. */
  searchRetryAfter: string;
  wallet: WalletAnswer;
  /** Told of every wallet read as it arrives (before it is answered, or left unanswered). */
  onWalletRead?: (kind: 'balance' | 'statement', answer: ReturnType<WalletAnswer>) => void;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function hostileServer(h: Hostile): Server {
  let searches = 0;
  const reads = { balance: 0, statement: 0 };
  const rl = (remaining: number) => ({
    'x-ratelimit-limit': String(LIMIT),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': remaining > 0 ? '0' : '60',
    'x-ratelimit-resource': 'read',
  });
  const refuse = (res: ServerResponse, retryAfter: string) =>
    send(
      res,
      429,
      { error: { code: 'RATE_LIMITED', message: 'slow down', request_id: 'r', details: { resource: 'read', limit: LIMIT, window_s: 60 } } },
      { ...rl(0), 'retry-after': retryAfter },
    );
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const url = req.url ?? '';
    if (url.startsWith('/v1/account')) {
      send(res, 200, { products: [{ product: 'flights', enabled: true }], rate_limits: { read: LIMIT, write: LIMIT }, currency: 'EUR' }, rl(LIMIT - 1));
    } else if (url.startsWith('/v1/flights/search')) {
      searches += 1;
      if (searches <= LIMIT) send(res, 200, { results: [] }, rl(LIMIT - searches));
      else refuse(res, h.searchRetryAfter);
    } else if (url.startsWith('/v1/wallet/balance') || url.startsWith('/v1/wallet/statement')) {
      const kind = url.startsWith('/v1/wallet/balance') ? 'balance' : 'statement';
      const answer = h.wallet(kind, reads[kind]++);
      h.onWalletRead?.(kind, answer);
      if (answer.status === 'silent') return;
      if (answer.status === 429) refuse(res, answer.retryAfter);
      else if (kind === 'balance') send(res, 200, { balance: 100, currency: 'EUR' }, rl(LIMIT - 1));
      else send(res, 200, { entries: [], next_cursor: null }, rl(LIMIT - 1));
    } else send(res, 404, { error: { code: 'NOT_FOUND', message: 'no', request_id: 'r' } });
  });
}

interface LoadRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Real ms from the signal to the exit, when one was sent. */
  exitAfterSignalMs?: number;
  /** When the signal was sent (Date.now), if it was. */
  signalledAt?: number;
  dir: string;
}

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
  }
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * Starts the hostile target and `load` against it; sends `signal` once stderr
 * says the harness waits for a wallet read, or as `signalWhen` says: when a
 * wallet read is left unanswered, or once the load runs (its first progress line).
 */
async function loadAgainst(
  h: Hostile,
  o: { durationS: number; signal?: 'SIGINT' | 'SIGTERM'; signalWhen?: 'wait' | 'silent-read' | 'load-runs'; requestTimeoutMs?: number },
): Promise<LoadRun> {
  let signalNow: (() => void) | undefined;
  const when = o.signalWhen ?? 'wait';
  server = hostileServer({
    ...h,
    onWalletRead: (kind, answer) => {
      h.onWalletRead?.(kind, answer);
      if (when === 'silent-read' && answer.status === 'silent') signalNow?.();
    },
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  dir = await mkdtemp(join(tmpdir(), 'svc-hostile-waits-'));
  const profile = join(dir, 'hostile.yaml');
  await writeFile(
    profile,
    `base_url: http://127.0.0.1:${port}/v1\nhotel_base_url: null\nclock: {control: none}\n${o.requestTimeoutMs !== undefined ? `request_timeout_ms: ${o.requestTimeoutMs}\n` : ''}agencies:\n  - {id: agency-alpha, key_id: ak_alpha, secret: hostile-secret}\n`,
  );
  const reports = dir;
  const child = spawn(
    process.execPath,
    [...cliArgs(), 'load', '--target', profile, '--search', 'flights', '--duration', String(o.durationS), '--connections', '2', '--report-dir', reports],
    { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let signalledAt: number | undefined;
  signalNow = () => {
    if (!o.signal || signalledAt !== undefined) return;
    signalledAt = Date.now();
    child.kill(o.signal);
  };
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (when === 'wait' && /waiting out its Retry-After to read its wallet/.test(stderr)) signalNow?.();
    if (when === 'load-runs' && /load: \d+\/\d+ s/.test(stderr)) signalNow?.();
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  return { code, signal, stdout, stderr, dir: reports, ...(signalledAt !== undefined ? { signalledAt, exitAfterSignalMs: Date.now() - signalledAt } : {}) };
}

interface ReportCase {
  id: string;
  verdict: string;
  message: string;
}

async function latestReport(reports: string): Promise<{ verdict: string; cases: ReportCase[] }> {
  return JSON.parse(await readFile(join(reports, 'latest', 'report.json'), 'utf8')) as { verdict: string; cases: ReportCase[] };
}

const ALWAYS_READ: WalletAnswer = () => ({ status: 200 });

/**
 * Real ms a signal may take to end the load, report written: the aim is 2 s,
 * the bound leaves room for a busy 2-CPU machine running a CPU-heavy
 * self-test beside. What the tests below prove is that nothing waited: the
 * waits they stop (a Retry-After of 59 s, a request timeout of 45 s) are far above it.
 */
const EXIT_BOUND_MS = 5_000;

describe('a Retry-After beyond the window', () => {
  it("on the load's 429s is a FAIL, exit 1 (every verdict was PASS or SKIP, exit 0)", async () => {
    const r = await loadAgainst({ searchRetryAfter: '1000000000', wallet: ALWAYS_READ }, { durationS: 2 });
    expect(r.code, r.stderr).toBe(1);
    const report = await latestReport(r.dir);
    const verdict = report.cases.find((c) => c.id === 'load:retry-after:agency-alpha:read');
    expect(verdict).toMatchObject({ verdict: 'FAIL', message: expect.stringContaining('beyond-window, 1000000000 s, longer than the window of 60 s') });
  }, 60_000);

  it("on the harness's own wallet reads is not waited for: the wallet is an ERROR that says why (it waited 120 s up to 12 times)", async () => {
    const r = await loadAgainst({ searchRetryAfter: '30', wallet: () => ({ status: 429, retryAfter: '1000000000000' }) }, { durationS: 2 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/waiting out its Retry-After/);
    const wallet = (await latestReport(r.dir)).cases.find((c) => c.id === 'load:wallet:agency-alpha');
    expect(wallet).toMatchObject({
      verdict: 'ERROR',
      message: expect.stringContaining('answered 429 with retry-after 1000000000000 s, longer than the window of 60 s: not waited for'),
    });
  }, 60_000);
});

describe('a wait for a wallet read, stopped by a signal', () => {
  it.each([
    // Every wallet read refused: the load waits before it starts.
    ['SIGINT', 'the opening read', 130, (): WalletAnswer => () => ({ status: 429, retryAfter: '59' })],
    // The opening reads answered, the closing ones refused: the load waits after it ran.
    ['SIGTERM', 'the closing read', 143, (): WalletAnswer => (_kind, n) => (n === 0 ? { status: 200 } : { status: 429, retryAfter: '59' })],
  ] as const)(
    '%s during %s writes the report, INTERRUPTED, and exits %i within seconds (the wait went on, and a second signal quit with no report)',
    async (signal, _when, exit, wallet) => {
      const r = await loadAgainst({ searchRetryAfter: '30', wallet: wallet() }, { durationS: 1, signal });
      expect(r.exitAfterSignalMs, r.stderr).toBeDefined();
      expect(r.code, r.stderr).toBe(exit);
      expect(r.stderr).toContain(`${signal} received, stopping the load`);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      const report = await latestReport(r.dir);
      expect(report.verdict).toBe('INTERRUPTED');
      expect(report.cases.find((c) => c.id === 'load:wallet:agency-alpha')).toMatchObject({
        verdict: 'SKIP',
        message: expect.stringContaining('not reconciled'),
      });
      // The wait was 59 s: well under it is the wait given way. The aim is 2 s (0.1 to 0.2 s measured by hand at a load average
      // of 2); the bound leaves room for a machine shared by many (before the figures were summed from bucket counts, computing
      // them alone took 1.4 to 4 s at a load average of 20 on 2 cores, the whole exit up to 10.5 s).
      expect(r.exitAfterSignalMs).toBeLessThan(EXIT_BOUND_MS);
    },
    90_000,
  );
});

describe('a wallet read the target leaves unanswered, stopped by a signal', () => {
  // A request timeout far above the bound: an exit within the bound did not wait for it.
  const requestTimeoutMs = 45_000;

  it('SIGINT while the opening read is unanswered aborts it: the report is written, INTERRUPTED, exit 130, without waiting for the request timeout', async () => {
    const r = await loadAgainst(
      { searchRetryAfter: '30', wallet: () => ({ status: 'silent' }) },
      { durationS: 1, signal: 'SIGINT', signalWhen: 'silent-read', requestTimeoutMs },
    );
    expect(r.exitAfterSignalMs, r.stderr).toBeDefined();
    expect(r.code, r.stderr).toBe(130);
    const report = await latestReport(r.dir);
    expect(report.verdict).toBe('INTERRUPTED');
    expect(report.cases.find((c) => c.id === 'load:wallet:agency-alpha')).toMatchObject({
      verdict: 'SKIP',
      message: expect.stringContaining('not reconciled'),
    });
    // Before, it waited for the request timeout (45 s), then wrote the report.
    expect(r.exitAfterSignalMs).toBeLessThan(EXIT_BOUND_MS);
  }, 90_000);

  it('SIGTERM during the load sends no wallet read after it: the closing reads a target would leave unanswered are not waited for (they were sent and waited out)', async () => {
    const reads: Array<{ kind: string; at: number }> = [];
    const r = await loadAgainst(
      {
        searchRetryAfter: '30',
        wallet: (_kind, n) => (n === 0 ? { status: 200 } : { status: 'silent' }),
        onWalletRead: (kind) => reads.push({ kind, at: Date.now() }),
      },
      { durationS: 30, signal: 'SIGTERM', signalWhen: 'load-runs', requestTimeoutMs },
    );
    expect(r.exitAfterSignalMs, r.stderr).toBeDefined();
    const after = reads.filter((x) => x.at >= r.signalledAt!).map((x) => x.kind);
    expect(r.code, r.stderr).toBe(143);
    const report = await latestReport(r.dir);
    expect(report.verdict).toBe('INTERRUPTED');
    expect(report.cases.find((c) => c.id === 'load:wallet:agency-alpha')).toMatchObject({
      verdict: 'SKIP',
      message: expect.stringContaining('a stopped load reads no wallet after it'),
    });
    expect(after).toEqual([]);
    expect(r.exitAfterSignalMs).toBeLessThan(EXIT_BOUND_MS);
  }, 90_000);
});
