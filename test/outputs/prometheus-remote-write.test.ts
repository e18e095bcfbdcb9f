import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadRunResult } from '../../src/results/run-result.js';
import { runCli } from '../helpers/run-cli.js';

/** Debian's prometheus (2.42 on bookworm), which `.ci/run` installs when missing; PROMETHEUS_PATH names another. */
function findPrometheus(): string | undefined {
  const chosen = process.env['PROMETHEUS_PATH'];
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  const onPath = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((d) => path.join(d, 'prometheus'));
  return ['/usr/bin/prometheus', ...onPath].find((p) => existsSync(p));
}

const PROMETHEUS = findPrometheus();
// In CI the binary is installed by .ci/run: its absence there is a failure, not a skip.
if (!PROMETHEUS && process.env['CI']) throw new Error('prometheus is missing in CI: .ci/run installs Debian’s prometheus (apt-get install -y prometheus)');
if (!PROMETHEUS) process.stderr.write('remote-write test skipped: no prometheus binary found (apt-get install -y prometheus, or set PROMETHEUS_PATH)\n');

/** A port free at the moment of asking (Prometheus takes no port 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let dir = '';
let prom: ChildProcess | undefined;
let base = '';
let promLog = '';

async function query(q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
  expect(body.status).toBe('success');
  return body.data.result;
}

describe.skipIf(!PROMETHEUS)('load --out prometheus-rw against a real Prometheus', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'prom-rw-'));
    await writeFile(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\n');
    for (let attempt = 0; attempt < 3 && !base; attempt++) {
      const port = await freePort();
      const child = spawn(
        PROMETHEUS!,
        [
          `--config.file=${path.join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${path.join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--web.enable-remote-write-receiver',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.stderr!.on('data', (d: Buffer) => (promLog += d.toString()));
      prom = child;
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 300 && child.exitCode === null; i++) {
        const ready = await fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) {
          base = url;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!base) throw new Error(`prometheus did not start:\n${promLog.slice(-2000)}`);
  }, 60_000);

  afterAll(async () => {
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom!.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the request counts Prometheus holds equal report.json's, and the report's p95 lies in the bucket Prometheus's p95 falls in", async () => {
    const run = await runCli(
      [
        'load',
        '--agencies',
        '3',
        '--duration',
        '3',
        '--requests',
        '600',
        '--out',
        `prometheus-rw=${base}/api/v1/write`,
        '--report-dir',
        path.join(dir, 'reports'),
        '--json',
      ],
      { CI: '1' },
    );
    expect(run.stderr).not.toMatch(/push to .* failed|internal error/);
    expect([0, 99]).toContain(run.code);
    const summary = JSON.parse(run.stdout.trim()) as { run_id: string; report_dir: string };
    const report = JSON.parse(await readFile(path.join(summary.report_dir, 'report.json'), 'utf8')) as LoadRunResult;
    const load = report.load;
    const run_id = `run_id="${summary.run_id}"`;

    const total = await query(`sum(svc_harness_requests_total{${run_id}})`);
    expect(Number(total[0]!.value[1])).toBe(load.totals.requests);
    const byOutcome = Object.fromEntries(
      (await query(`sum by (outcome) (svc_harness_requests_total{${run_id}})`)).map((r) => [r.metric['outcome'], Number(r.value[1])]),
    );
    expect(byOutcome).toEqual(
      Object.fromEntries(
        Object.entries({ ok: load.totals.ok, rateLimited: load.totals.rateLimited, errors: load.totals.errors, expected: load.totals.expected ?? 0 }).filter(
          ([, n]) => n > 0,
        ),
      ),
    );
    const byOperation = Object.fromEntries(
      (await query(`sum by (operation) (svc_harness_requests_total{${run_id}})`)).map((r) => [r.metric['operation'], Number(r.value[1])]),
    );
    expect(byOperation).toEqual(
      Object.fromEntries(
        Object.entries(load.operations)
          .filter(([op]) => op !== 'all')
          .map(([op, f]) => [op, f.count]),
      ),
    );
    // Every request under the HTTP method it was sent with: the profile's methods, all the requests between them.
    const byMethod = await query(`sum by (operation, http_request_method) (svc_harness_requests_total{${run_id}})`);
    expect(byMethod.filter((r) => !/^(GET|POST|PUT|PATCH|DELETE)$/.test(r.metric['http_request_method'] ?? '')).map((r) => r.metric)).toEqual([]);
    expect(byMethod.reduce((n, r) => n + Number(r.value[1]), 0)).toBe(load.totals.requests);
    const cutOff = await query(`sum(svc_harness_requests_cut_off_total{${run_id}})`);
    expect(cutOff.length === 0 ? 0 : Number(cutOff[0]!.value[1])).toBe(load.totals.cutOff ?? 0);

    // The bucket in which the 95th percentile of Prometheus's histogram falls, and the report's p95 (HDR, 3 significant digits) in it.
    const buckets = (await query(`sum by (le) (svc_harness_request_duration_seconds_bucket{${run_id}})`))
      .map((r) => ({ le: r.metric['le'] === '+Inf' ? Number.POSITIVE_INFINITY : Number(r.metric['le']), count: Number(r.value[1]) }))
      .sort((a, b) => a.le - b.le);
    const answered = buckets.at(-1)!.count;
    expect(answered).toBe(load.operations['all']!.latency.count);
    const i = buckets.findIndex((b) => b.count >= 0.95 * answered);
    const lower = i === 0 ? 0 : buckets[i - 1]!.le;
    const upper = buckets[i]!.le;
    const p95 = load.operations['all']!.latency.p95 / 1000;
    expect(p95).toBeGreaterThanOrEqual(lower * 0.999);
    expect(p95).toBeLessThanOrEqual(upper * 1.001);
    const promP95 = Number((await query(`histogram_quantile(0.95, sum by (le) (svc_harness_request_duration_seconds_bucket{${run_id}}))`))[0]!.value[1]);
    expect(promP95).toBeGreaterThanOrEqual(lower);
    expect(promP95).toBeLessThanOrEqual(upper);

    // The harness's own percentile under its own name, and the run's duration.
    const hdrP95 = await query(`svc_harness_request_duration_percentile_seconds{${run_id},operation="all",outcome="all",quantile="0.95"}`);
    expect(Number(hdrP95[0]!.value[1])).toBeCloseTo(p95, 9);
    const duration = await query(`svc_harness_run_duration_seconds{${run_id}}`);
    expect(Number(duration[0]!.value[1])).toBe(report.durationMs / 1000);
    const verdicts = await query(`sum(svc_harness_verdicts_total{${run_id}})`);
    expect(Number(verdicts[0]!.value[1])).toBe(report.cases.length);
  }, 120_000);
});
