import { readFile } from 'node:fs/promises';
import type { LoadCommandArgs } from '../cli/commands/load.js';
import { HarnessError } from '../errors/harness-error.js';
import { createMock } from '../mock/create-mock.js';
import { generateAgencies } from '../mock/fixture/generate-agencies.js';
import { DEFAULT_FIXTURE } from '../mock/fixture/default-fixture.js';
import { loadProfile } from '../profile/load-profile.js';
import { writeReports } from '../report/write-reports.js';
import { loadScenarios } from '../scenario/load-scenario.js';
import { parseRegression, parseThresholds, type Threshold } from './gates.js';
import type { LoadResult } from './load-result.js';
import { mockLoadTarget, profileLoadTarget } from './load-target.js';
import { progressPrinter } from './progress.js';
import { loadExitCode } from './load-run-result.js';
import { runLoad } from './run-load.js';

/** Parses `i/N` (1 ≤ i ≤ N). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new HarnessError('E_USAGE', `--shard must be i/N with 1 ≤ i ≤ N, got "${text}"`);
  return { index, count };
}

/** Thresholds from flags and a file. */
export async function readThresholds(flags: readonly string[] | undefined, file: string | undefined): Promise<Threshold[]> {
  const lines = [...(flags ?? [])];
  if (file) {
    try {
      lines.push(...(await readFile(file, 'utf8')).split('\n'));
    } catch (err) {
      throw new HarnessError('E_FILE_UNREADABLE', `cannot read thresholds file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
    }
  }
  return parseThresholds(lines);
}

/** The load result inside a report.json (or a bare load result). */
export async function readLoadReport(file: string): Promise<LoadResult> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new HarnessError('E_FILE_UNREADABLE', `cannot read load report ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  const load = (doc as { load?: unknown })?.load ?? doc;
  if (typeof load !== 'object' || load === null || (load as { schema?: unknown }).schema !== 'svc-harness/load@1') {
    throw new HarnessError('E_FILE_UNREADABLE', `${file} holds no load result (expected a report.json of \`svc-harness load\`)`);
  }
  return load as LoadResult;
}

function int(name: string, v: number | undefined, min: number, max: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) throw new HarnessError('E_USAGE', `--${name} must be an integer from ${min} to ${max}, got ${String(v)}`);
}

/** `svc-harness load`: returns the exit code (0, 1 a verdict under load failed, 99 a gate failed). */
export async function loadCommandMain(args: LoadCommandArgs): Promise<number> {
  if (!(args.duration > 0 && args.duration <= 86_400)) throw new HarnessError('E_USAGE', `--duration must be a number of seconds from 0 to 86400, got ${String(args.duration)}`);
  int('agencies', args.agencies, 1, 10_000);
  int('requests', args.requests, 1, 1_000_000_000);
  int('connections', args.connections, 0, 10_000);
  int('read-limit', args['read-limit'], 1, 10_000_000);
  int('write-limit', args['write-limit'], 1, 10_000_000);
  const shard = args.shard ? parseShard(args.shard) : undefined;
  const thresholds = await readThresholds(args.threshold, args.thresholds);
  const maxRegression = parseRegression(args['max-regression']);
  const baseline = args.baseline ? { result: await readLoadReport(args.baseline), maxRegression } : undefined;

  const mock = args.target
    ? undefined
    : await createMock({
        fixture: { agencies: [...structuredClone(DEFAULT_FIXTURE.agencies), ...generateAgencies(args.agencies, limitsOverride(args))] },
        defects: args.defects ? args.defects.split(',').map((d) => d.trim()).filter(Boolean) : [],
      });
  try {
    const target = mock ? mockLoadTarget(mock) : await profileLoadTarget(await loadProfile(args.target!));
    if (args.search !== undefined && !target.profile.products.includes(args.search)) {
      throw new HarnessError('E_USAGE', `--search names an unknown product "${args.search}" (products: ${target.profile.products.join(', ')})`);
    }
    const scenarios = args.search !== undefined ? undefined : await loadScenarios({ files: args.scenario, dir: args['scenarios-dir'] }, target.profile);
    const connections = args.connections ?? Math.max(10, shardCount(target.agencies.length, shard));
    const ac = new AbortController();
    let interrupts = 0;
    const onSigint = (): void => {
      interrupts += 1;
      if (interrupts > 1) process.exit(130);
      process.stderr.write('\nsvc-harness: stopping the load (Ctrl-C again to quit at once); the report is still written\n');
      ac.abort();
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
    const progress = args.json ? undefined : progressPrinter();
    let result;
    try {
      result = await runLoad({
        target,
        scenarios,
        search: args.search !== undefined ? { product: args.search } : undefined,
        durationS: args.duration,
        maxRequests: args.requests,
        connections,
        pushLimits: args['push-limits'],
        shard,
        thresholds,
        baseline,
        signal: ac.signal,
        onProgress: progress ? (p) => progress.update(p) : undefined,
        command: `svc-harness ${process.argv.slice(2).join(' ')}`,
      });
    } finally {
      progress?.done();
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    }
    const written = await writeReports(result, args['report-dir']);
    const code = loadExitCode(result);
    const load = result.load as LoadResult;
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ runId: result.runId, verdict: result.verdict, exitCode: code, dir: written.dir, rps: load.rps, totals: load.totals, summary: result.summary, gates: load.gates })}\n`);
    } else {
      const all = load.operations.all;
      process.stderr.write(
        `load: ${load.totals.requests} requests in ${load.durationS.toFixed(1)} s (${load.rps.toFixed(0)} rps), 429 ${(load.rateLimitedRate * 100).toFixed(1)}%, errors ${(load.errorRate * 100).toFixed(2)}%${load.totals.expected ? ` (and ${load.totals.expected} refusals provoked on purpose)` : ''}` +
          (all ? `, latency p50 ${all.latency.p50.toFixed(2)} ms p99 ${all.latency.p99.toFixed(2)} ms` : '') +
          `\nverdicts: ${result.summary.PASS} pass, ${result.summary.FAIL} fail, ${result.summary.WARN} warn, ${result.summary.SKIP} skip, ${result.summary.ERROR} error\n`,
      );
      for (const c of result.cases) if (c.verdict === 'FAIL' || c.verdict === 'ERROR') process.stderr.write(`  ${c.verdict} ${c.id}: ${c.message}\n`);
      process.stderr.write(`reports: ${written.dir}\n`);
    }
    return code;
  } finally {
    await mock?.close();
  }
}

function limitsOverride(args: LoadCommandArgs): { limits: { read: number; write: number } } | Record<string, never> {
  if (args['read-limit'] === undefined && args['write-limit'] === undefined) return {};
  return { limits: { read: args['read-limit'] ?? 600, write: args['write-limit'] ?? 60 } };
}

function shardCount(total: number, shard?: { index: number; count: number }): number {
  if (!shard) return total;
  let n = 0;
  for (let k = 0; k < total; k++) if (k % shard.count === shard.index - 1) n++;
  return n;
}
