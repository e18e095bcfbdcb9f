import type { Profile } from '../profile/index.js';
import type { CaseResult, Verdict } from '../results/model.js';
import type { LoadRunResult } from '../results/run-result.js';
import { newRunId } from '../results/run-id.js';
import { toolInfo } from '../runner/tool-info.js';
import type { LoadResult } from '../results/load-result.js';

/** The case results of a load: one per verdict under load, one per gate. */
function loadCases(load: LoadResult, startedAt: number = load.startedAt): CaseResult[] {
  const durationMs = Math.round(load.durationS * 1000);
  const cases: CaseResult[] = load.verdicts.map((v) => ({
    id: v.id,
    kind: 'check',
    title:
      v.kind === 'wallet'
        ? `wallet of ${v.agency} reconciles after the load`
        : v.kind === 'window-limit'
          ? `${v.agency} ${v.bucket ?? ''}: no window over the limit under load`
          : v.kind === 'early-throttle'
            ? `${v.agency} ${v.bucket ?? ''}: admits up to the limit under load`
            : v.kind === 'headers'
              ? `${v.agency} ${v.bucket ?? ''}: rate-limit headers tell the limit and what remains under load`
              : `${v.agency} ${v.bucket ?? ''}: every 429's Retry-After is right under load`,
    area: v.kind === 'wallet' ? 'wallet' : 'ratelimit',
    clause:
      v.kind === 'wallet'
        ? 'SPEC §1, §7: a 429 and a failed booking charge nothing'
        : v.kind === 'headers'
          ? 'SPEC §8.4: usage is reported in response headers with the prefix X-RateLimit-'
          : 'SPEC §8: per-agency read and write limits over a rolling one-minute window; a 429 carries Retry-After',
    verdict: v.verdict,
    message: v.message,
    evidence: [],
    details: v.details,
    startedAt,
    durationMs,
  }));
  for (const g of load.gates) {
    cases.push({
      id: g.id,
      kind: 'gate',
      // The same title whatever the outcome: CI history follows a case by its name.
      title: 'performance gate',
      area: 'load',
      clause: 'performance budget',
      verdict: g.passed ? 'PASS' : 'FAIL',
      message: g.message,
      evidence: [],
      details: { actual: g.actual, expected: g.expected },
      startedAt,
      durationMs,
    });
  }
  return cases;
}

/** Wraps a load result into the run result every report writer renders. */
export function toRunResult(
  load: LoadResult,
  meta: { command: string; profile: Pick<Profile, 'name' | 'base_url'>; embedded: boolean; startedIso: string; durationMs: number; runId?: string },
): LoadRunResult {
  const cases = loadCases(load, Date.parse(meta.startedIso));
  const summary: LoadRunResult['summary'] = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length };
  for (const c of cases) summary[c.verdict as Verdict] += 1;
  const startMs = Date.parse(meta.startedIso);
  return {
    schema: 'svc-harness/run@1',
    kind: 'load',
    runId: meta.runId ?? newRunId(new Date(startMs)),
    command: meta.command,
    tool: toolInfo(),
    target: {
      name: meta.profile.name,
      baseUrl: meta.profile.base_url,
      hotelBaseUrl: null,
      clock: meta.embedded ? 'mock-admin' : 'none',
      embedded: meta.embedded,
    },
    seed: 0,
    startedAt: meta.startedIso,
    finishedAt: new Date(startMs + meta.durationMs).toISOString(),
    durationMs: meta.durationMs,
    summary,
    verdict: load.interrupted ? 'INTERRUPTED' : summary.FAIL + summary.ERROR > 0 ? 'FAIL' : 'PASS',
    cases,
    exchanges: [],
    timelines: { rateLimit: [], webhooks: [] },
    load,
    notes: [
      ...(load.interrupted ? ['INTERRUPTED: the load was stopped before its end; figures, verdicts and gates cover only what ran'] : []),
      `load: ${load.agencies.length} agencies, ${load.connections} connections, ${load.durationS.toFixed(1)} s of real time${load.shards.length ? `, shard(s) ${load.shards.map((s) => `${s.index}/${s.count}`).join(', ')}` : ''}`,
      ...load.notes,
    ],
  };
}
