import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exitCodeOf, type CommandOutcome } from '../../src/cli/exit-codes.js';
import { reportFatal } from '../../src/cli/fatal.js';
import { toRunResult } from '../../src/load/load-run-result.js';
import { LatencyHistogram } from '../../src/load/measure/latency-histogram.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { renderJson } from '../../src/report/render-json.js';
import type { OperationFigures } from '../../src/results/load-result.js';
import type { LoadRunResult } from '../../src/results/run-result.js';
import { newRunId } from '../../src/results/run-id.js';
import { loadResultOf } from '../load/_load-result.js';

/**
 * The report.json of a load over `operations` operations (`op-0001`…), each
 * answered `perOp` times with a 200, a 429 and a 500 in turn, every latency
 * `slowerMs` later: what `report compare` reads of a load that named every
 * path it sent as an operation of its own. Each operation has histograms of
 * its own (all answers and each outcome), as a real load's would.
 */
export function manyOperationsLoadRun(operations: number, perOp = 12, slowerMs = 0, startMs = Date.UTC(2026, 10, 1)): LoadRunResult {
  const STATUSES = [200, 200, 429, 500] as const;
  const all = new LatencyHistogram('fast');
  const ops: Record<string, OperationFigures> = {};
  const totals = { requests: 0, ok: 0, rateLimited: 0, errors: 0 };
  for (let o = 0; o < operations; o++) {
    const any = new LatencyHistogram('fast');
    const by = { '2xx': new LatencyHistogram('fast'), '429': new LatencyHistogram('fast'), other: new LatencyHistogram('fast') };
    const statuses: Record<string, number> = {};
    for (let i = 0; i < perOp; i++) {
      const ms = 5 + ((o * 7 + i * 3) % 40) + slowerMs;
      const status = STATUSES[i % 4]!;
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
      for (const h of [any, all, status === 200 ? by['2xx'] : status === 429 ? by['429'] : by.other]) h.recordMs(ms);
    }
    const outcome = (h: LatencyHistogram) => ({ latency: h.summary(), histogram: h.encode() });
    const figures: OperationFigures = {
      count: perOp,
      ok: statuses['200'] ?? 0,
      rateLimited: statuses['429'] ?? 0,
      errors: statuses['500'] ?? 0,
      statuses,
      latency: any.summary(),
      histogram: any.encode(),
      latencyByOutcome: { '2xx': outcome(by['2xx']), '429': outcome(by['429']), other: outcome(by.other) },
    };
    ops[`op-${String(o + 1).padStart(4, '0')}`] = figures;
    totals.requests += figures.count;
    totals.ok += figures.ok;
    totals.rateLimited += figures.rateLimited;
    totals.errors += figures.errors;
  }
  const allFigures: OperationFigures = {
    count: totals.requests,
    ok: totals.ok,
    rateLimited: totals.rateLimited,
    errors: totals.errors,
    statuses: { '200': totals.ok, '429': totals.rateLimited, '500': totals.errors },
    latency: all.summary(),
    histogram: all.encode(),
  };
  const load = loadResultOf(new LoadRecorder({ rateLimitedStatus: 429 }), {
    startedAt: startMs,
    finishedAt: startMs + 60_000,
    durationS: 60,
    totals,
    rps: totals.requests / 60,
    rateLimitedRate: totals.rateLimited / Math.max(1, totals.requests),
    errorRate: totals.errors / Math.max(1, totals.requests),
    operations: { all: allFigures, ...ops },
    spectrum: all.spectrum(),
    series: [],
  });
  return toRunResult(load, {
    command: 'svc-harness load',
    profile: { name: 'many operations', base_url: 'http://127.0.0.1:1' },
    embedded: false,
    startedIso: new Date(startMs).toISOString(),
    durationMs: 60_000,
    runId: newRunId(new Date(startMs), (operations + slowerMs).toString(16).padStart(4, '0').slice(-4)),
  });
}

/**
 * Writes `count` run folders under `dir`, each the report.json of a load
 * like `sample` started a minute after the one before, with its own run id;
 * returns the folders' parent. The text is built once and its ids replaced,
 * so thousands of folders take seconds.
 */
export function writeRunFolders(dir: string, count: number, sample: LoadRunResult): string {
  const text = renderJson(sample);
  const t0 = Date.parse(sample.startedAt);
  for (let i = 0; i < count; i++) {
    const start = new Date(t0 + i * 60_000);
    const runId = newRunId(start, (i % 65_536).toString(16).padStart(4, '0'));
    const run = path.join(dir, runId);
    mkdirSync(run, { recursive: true });
    writeFileSync(
      path.join(run, 'report.json'),
      text.replace(`"runId": "${sample.runId}"`, `"runId": "${runId}"`).replace(`"startedAt": "${sample.startedAt}"`, `"startedAt": "${start.toISOString()}"`),
    );
  }
  return dir;
}

/** How a command ended when run in process: its exit status, mapped as `main` maps it, and the line it printed on stderr. */
export interface InProcessExit {
  code: number;
  stderr: string;
}

/**
 * Runs a command function in this process the way the CLI's `main` does:
 * its outcome through `exitCodeOf`, an error through `reportFatal` (the line
 * it prints captured). What it writes on stdout is dropped.
 */
export async function inProcess(run: () => Promise<CommandOutcome>): Promise<InProcessExit> {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return { code: exitCodeOf(await run()), stderr: '' };
  } catch (err) {
    const code = reportFatal(err, (line) => lines.push(line));
    return { code, stderr: lines.join('\n') };
  } finally {
    process.stdout.write = write;
  }
}

/** `run`'s load with `seconds` seconds of series, each second's histogram a real encoding: the size of report an hour's load writes (about 1 MB for 3 600 s). */
export function longLoadRun(seconds: number, startMs = Date.UTC(2026, 10, 1)): LoadRunResult {
  const run = manyOperationsLoadRun(8, 12, 0, startMs);
  const encodings = Array.from({ length: 16 }, (_, k) => {
    const h = new LatencyHistogram('fast');
    for (let i = 0; i < 20; i++) h.recordMs(3 + ((k * 5 + i * 7) % 60));
    return h.encode();
  });
  const t0 = Math.floor(startMs / 1000);
  run.load.series = Array.from({ length: seconds }, (_, i) => ({
    second: t0 + i,
    requests: 20,
    ok: 20,
    rateLimited: 0,
    errors: 0,
    histogram: encodings[i % encodings.length]!,
    p50: 20,
    p99: 60,
    max: 62,
  }));
  return run;
}
