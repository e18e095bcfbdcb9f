import { setTimeout as sleep } from 'node:timers/promises';
import { rateLimitRetry } from '../api/rate-limit-retry.js';
import { createTargetApi, type ClosableTargetApi } from '../api/target-api.js';
import type { ApiResponse, StatementEntry } from '../api/types.js';
import { withRetryPolicy } from '../client/retry-scope.js';
import type { Profile } from '../profile/types.js';
import type { RunResult } from '../report/model.js';
import type { Scenario } from '../scenario/types.js';
import { runAutocannonLoad, type LoadAgency } from './autocannon-load.js';
import type { Threshold } from './gates.js';
import { LoadRecorder } from './load-recorder.js';
import { evaluateLoadGates } from './load-metrics.js';
import type { LoadResult, LoadVerdict } from './load-result.js';
import { judgeBucket } from './load-verdicts.js';
import { toRunResult } from './load-run-result.js';
import { pushLimits } from './push-limits.js';
import { bucketOf, compileJourney } from './scenario-requests.js';
import { reconcileWallet, WalletTally, type LedgerLine, type WalletReading } from './wallet-reconciliation.js';

/** Real ms the harness waits after the load before reading wallets, for requests cut off mid-flight to finish at the service. */
export const SETTLE_MS = 1000;

/** The service a load runs against. */
export interface LoadTarget {
  profile: Profile;
  /** Every agency of the target, in index order (shards split this list). */
  agencies: LoadAgency[];
  /** True when the harness started the mock itself. */
  embedded: boolean;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Moves the target clock forward (the embedded mock); absent for a real service, where the harness waits. */
  advance?: (ms: number) => Promise<void>;
}

/** Progress of a running load, once a second. */
export interface LoadProgress {
  elapsedS: number;
  durationS: number;
  requests: number;
  /** Requests in the last second. */
  rps: number;
  rateLimited: number;
  errors: number;
}

/** Options of {@link runLoad}. */
export interface LoadRunOptions {
  target: LoadTarget;
  /** Scenario mode: the journeys to replay; search mode when absent or `search` is set. */
  scenarios?: Scenario[] | undefined;
  /** Fast mode: signed searches of this product from a template. */
  search?: { product: string } | undefined;
  /** Seconds of load (real time). */
  durationS: number;
  /** Stop after this many autocannon responses. */
  maxRequests?: number | undefined;
  /** autocannon connections; 0 runs no autocannon (only the paced push, if asked). */
  connections: number;
  /** Also drive every agency past its limits at planned instants. */
  pushLimits: boolean;
  /** Which part of the agencies this process takes: agency k when k mod count = index − 1. */
  shard?: { index: number; count: number } | undefined;
  thresholds: Threshold[];
  baseline?: { result: LoadResult; maxRegression: number } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: LoadProgress) => void) | undefined;
  /** Command line, for the report. */
  command?: string | undefined;
  /** Real ms to wait after the load before reading wallets. @defaultValue SETTLE_MS */
  settleMs?: number | undefined;
}

/** The agencies of shard `index` of `count` (1-based): agency k when k mod count = index − 1. */
export function shardAgencies<T>(agencies: readonly T[], shard?: { index: number; count: number }): T[] {
  if (!shard) return [...agencies];
  return agencies.filter((_, k) => k % shard.count === shard.index - 1);
}

function ledgerLines(profile: Profile, entries: StatementEntry[]): LedgerLine[] {
  return entries.map((e) => ({
    id: e.id,
    type: e.type === profile.values.entry_debit ? 'debit' : e.type === profile.values.entry_refund ? 'refund' : 'other',
    amount: e.amount,
    bookingId: e.bookingId,
  }));
}

/**
 * Runs a load: autocannon replaying scenarios (or the fast signed search)
 * for many agencies at once, optionally the paced limit push beside it;
 * then judges every agency's buckets from the recorded admission intervals
 * and reconciles every wallet, computes the figures and the gates, and
 * returns the run result (`load` holds the {@link LoadResult}).
 */
export async function runLoad(o: LoadRunOptions): Promise<RunResult> {
  const { profile } = o.target;
  const now = o.target.now;
  const startedIso = new Date().toISOString();
  const t0 = Date.now();
  const agencies = shardAgencies(o.target.agencies, o.shard);
  const notes: string[] = [];
  const recorder = new LoadRecorder();
  const wallet = new WalletTally();
  const readBucket = bucketOf(profile, 'GET', false);
  const apis = new Map<string, ClosableTargetApi>(agencies.map((a) => [a.id, createTargetApi({ profile, agency: { id: a.id, keyId: a.keyId, secret: a.secret }, now })]));

  /** Records a harness call's exchanges as admissions, so that the verdicts see every request that used a slot. */
  const note = (agency: string, op: string, res: ApiResponse): void => {
    const x = res.exchange;
    recorder.record(op, agency, readBucket, x.startedAt - 1, x.startedAt + x.durationMs + 1, x.durationMs, res.status, res.rateLimit.retryAfterS);
  };
  /** Reads with 429s waited out: the mock's clock is moved, a real service is waited for. */
  const patiently = rateLimitRetry(profile, { wait: (ms) => (o.target.advance ? o.target.advance(ms) : sleep(ms)), now, maxAttempts: 6, fallbackWaitMs: 1000, marginMs: 250 });
  const readWallet = async (a: LoadAgency, record: boolean): Promise<{ balance: number | undefined; entries: StatementEntry[]; ok: boolean }> => {
    const api = apis.get(a.id)!;
    const bal = await withRetryPolicy(patiently, () => api.balance(record ? { onResponse: (r) => note(a.id, 'setup.balance', r) } : {}));
    const st = await withRetryPolicy(patiently, () => api.statement(record ? { onResponse: (r) => note(a.id, 'setup.statement', r) } : {}));
    const stStatus = st.responses[st.responses.length - 1]?.status ?? 0;
    const ok = bal.status >= 200 && bal.status < 300 && stStatus >= 200 && stStatus < 300;
    return { balance: bal.amount, entries: st.entries, ok };
  };

  const opening = new Map<string, { balance: number | undefined; ids: Set<string>; ok: boolean }>();
  try {
    await Promise.all(
      agencies.map(async (a) => {
        const w = await readWallet(a, true);
        opening.set(a.id, { balance: w.balance, ids: new Set(w.entries.map((e) => e.id ?? '')), ok: w.ok });
      }),
    );

    const journeys = (o.scenarios ?? []).map((s) => compileJourney(s, profile));
    for (const j of journeys) for (const s of j.skipped) notes.push(`scenario ${j.name}: ${s}`);
    const usable = journeys.filter((j) => j.steps.length > 0);
    const mode: 'search' | 'scenarios' = o.search || usable.length === 0 ? 'search' : 'scenarios';
    const product = o.search?.product ?? profile.products[0] ?? 'flights';
    if (!o.search && usable.length === 0 && o.connections > 0) notes.push(`no usable scenario: autocannon sent signed ${product} searches`);
    if (o.connections > 0 && o.connections < agencies.length) notes.push(`${o.connections} connections for ${agencies.length} agencies: only the first ${o.connections} agencies got autocannon load`);

    let last = 0;
    const progress = o.onProgress
      ? setInterval(() => {
          const c = recorder.counts();
          o.onProgress!({ elapsedS: Math.round((Date.now() - t0) / 1000), durationS: o.durationS, requests: c.requests, rps: c.requests - last, rateLimited: c.rateLimited, errors: c.errors });
          last = c.requests;
        }, 1000)
      : undefined;
    const loadStart = now();
    const stopAll = new AbortController();
    const onAbort = (): void => stopAll.abort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) stopAll.abort();
    const endTimer = setTimeout(() => stopAll.abort(), o.durationS * 1000);
    const work: Array<Promise<unknown>> = [];
    if (o.connections > 0 && agencies.length > 0 && !stopAll.signal.aborted) {
      work.push(
        runAutocannonLoad({
          profile,
          agencies,
          connections: o.connections,
          durationS: o.durationS,
          maxRequests: o.maxRequests,
          journeys: mode === 'scenarios' ? usable : undefined,
          search: mode === 'search' ? { product } : undefined,
          recorder,
          wallet,
          now,
          signal: stopAll.signal,
        }).then((s) => {
          if (s.timeouts > 0) notes.push(`autocannon: ${s.timeouts} request(s) timed out`);
        }),
      );
    }
    if (o.pushLimits && agencies.length > 0) {
      // Half the run, so that the plan stays sustainable for many agencies (a lagging plan shows in the push latency).
      const paceMs = Math.max(500, (o.durationS * 1000) / 2);
      work.push(
        pushLimits({
          profile,
          agencies: agencies.map((a) => ({ agency: a, api: apis.get(a.id)!, product })),
          paceMs,
          untilMs: o.durationS * 1000,
          recorder,
          wallet,
          now,
          signal: stopAll.signal,
        }).then((s) => notes.push(`paced push: ${s.sent} of ${s.planned} planned requests, ${s.probes} Retry-After probe(s); worst lag behind plan ${s.maxLagMs.toFixed(1)} ms, worst latency from the planned instant ${s.maxLatencyMs.toFixed(1)} ms`)),
      );
    }
    try {
      await Promise.all(work);
    } finally {
      clearTimeout(endTimer);
      if (progress) clearInterval(progress);
      o.signal?.removeEventListener('abort', onAbort);
    }
    const loadEnd = now();
    const interrupted = o.signal?.aborted === true;
    if (interrupted) notes.push('stopped early (interrupted); figures and verdicts cover what ran');

    // Verdicts from what was recorded, before any request after the load.
    const verdicts: LoadVerdict[] = [];
    const windowMs = profile.limits.window_s * 1000;
    const byId = new Map(agencies.map((a) => [a.id, a]));
    for (const log of recorder.bucketLogs().sort((x, y) => `${x.agency}/${x.bucket}`.localeCompare(`${y.agency}/${y.bucket}`))) {
      const a = byId.get(log.agency);
      if (!a) continue;
      const limit = log.bucket === readBucket ? a.limits.read : a.limits.write;
      verdicts.push(...judgeBucket(log, limit, windowMs));
    }

    // Wallets: requests cut off when the load stopped may still be executing; let them settle. The load filled the read buckets; free them first.
    await sleep(o.settleMs ?? SETTLE_MS);
    if (o.target.advance) await o.target.advance(windowMs + 1000);
    await Promise.all(
      agencies.map(async (a) => {
        const open = opening.get(a.id)!;
        const close = await readWallet(a, false);
        if (!open.ok || !close.ok || open.balance === undefined || close.balance === undefined) {
          verdicts.push({ id: `load:wallet:${a.id}`, kind: 'wallet', agency: a.id, verdict: 'ERROR', message: `wallet of ${a.id} could not be read before and after the load`, details: {} });
          return;
        }
        const reading: WalletReading = { agency: a.id, opening: open.balance, closing: close.balance, entries: ledgerLines(profile, close.entries.filter((e) => !open.ids.has(e.id ?? ''))) };
        verdicts.push(reconcileWallet(reading, wallet.of(a.id)));
      }),
    );
    verdicts.sort((x, y) => x.id.localeCompare(y.id));

    const figures = recorder.figures();
    const durationS = Math.max(0.001, (loadEnd - loadStart) / 1000);
    const totals = recorder.counts();
    const modes: LoadResult['modes'] = [];
    if (o.connections > 0) modes.push(mode);
    if (o.pushLimits) modes.push('push-limits');
    const load: LoadResult = {
      schema: 'svc-harness/load@1',
      modes,
      shards: o.shard ? [o.shard] : [],
      agencies: agencies.map((a) => a.id),
      scenarios: mode === 'scenarios' ? usable.map((j) => j.name) : [],
      connections: o.connections,
      startedAt: loadStart,
      finishedAt: loadEnd,
      durationS,
      interrupted,
      clock: 'real-time',
      totals,
      rps: totals.requests / durationS,
      errorRate: totals.requests ? totals.errors / totals.requests : 0,
      rateLimitedRate: totals.requests ? totals.rateLimited / totals.requests : 0,
      operations: figures.operations,
      spectrum: figures.all.spectrum(),
      series: figures.series,
      verdicts,
      gates: [],
      notes,
    };
    load.gates = evaluateLoadGates(load, o.thresholds, o.baseline);
    return toRunResult(load, {
      command: o.command ?? 'load',
      profile,
      embedded: o.target.embedded,
      startedIso,
      durationMs: Date.now() - t0,
    });
  } finally {
    await Promise.allSettled([...apis.values()].map((api) => api.close()));
  }
}
