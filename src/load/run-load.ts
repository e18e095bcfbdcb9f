import { announcedSleep, type OnLoadWait } from './announced-wait.js';
import { createTargetApi, type ClosableTargetApi } from '../api/index.js';
import type { Profile } from '../profile/index.js';
import type { LoadResult, LoadVerdict } from '../results/load-result.js';
import type { RegressionLimits } from './gate/regression-rule.js';
import type { LoadRunResult } from '../results/run-result.js';
import type { Scenario } from '../scenario/types.js';
import { driveLoad, type LoadProgress } from './drive-load.js';
import type { Threshold } from './gate/gates.js';
import type { LoadAgency } from './generate/load-agency.js';
import { evaluateLoadGates } from './gate/load-metrics.js';
import { planLoad } from './generate/load-plan.js';
import { LoadRecorder } from './measure/load-recorder.js';
import { loadResultOf } from './load-result-of.js';
import { toRunResult } from './load-run-result.js';
import { judgeBuckets } from './judge/load-verdicts.js';
import { openWallets, reconcileWallets, type LoadWallets, type NoteAdmission } from './judge/load-wallets.js';
import { bucketOf } from './generate/scenario-requests.js';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.js';
import { WalletTally } from './judge/wallet-reconciliation.js';
import type { ApiResponse } from '../api/types.js';
import type { BucketLog } from './measure/load-recorder.js';
import { liveLoad, type LiveLoad } from './live-load.js';

/** Real ms the harness waits after the load before reading wallets, for requests cut off mid-flight to finish at the service. */
const SETTLE_MS = 1000;

/** Seconds the requests in flight at the end of the duration get to finish before they are cut off (k6's gracefulStop). */
const GRACEFUL_STOP_S = 5;

/** The service a load runs against. */
export interface LoadTarget {
  profile: Profile;
  /** Every agency of the target, in index order (shards split this list), or only this shard's when `sharded`. */
  agencies: LoadAgency[];
  /** True when `agencies` already holds only this process's shard (the others' were never read). */
  sharded?: boolean | undefined;
  /** True when the harness started the mock itself. */
  embedded: boolean;
  /** Target clock, ms since epoch. */
  now: () => number;
  /** Moves the target clock forward (the embedded mock, or a mock whose admin API the profile names); absent for a real service, where the harness waits. */
  advance?: (ms: number) => Promise<void>;
  /** What the report should say about the target as the load found it. */
  notes?: string[] | undefined;
  /** Puts back what the load changed at the target (a mock's clock it moved); called once the load has ended, also when it failed. */
  close?: () => Promise<void>;
}

/** Options of {@link runLoad}. */
interface LoadRunOptions {
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
  baseline?: { result: LoadResult; limits: RegressionLimits } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: LoadProgress) => void) | undefined;
  /** Command line, for the report. */
  command?: string | undefined;
  /** Real ms to wait after the load before reading wallets. @defaultValue SETTLE_MS */
  settleMs?: number | undefined;
  /** Seconds the requests in flight at the end of the duration get to finish. @defaultValue GRACEFUL_STOP_S */
  gracefulStopS?: number | undefined;
  /** Told of every real-time wait longer than a second, with its length, before it starts. */
  onWait?: OnLoadWait | undefined;
  /** The run id of the report (a new one when absent): outputs that watch the load name it before it ends. */
  runId?: string | undefined;
  /** Given the running load before its first request (the wallets' opening reads included), for a live page or metrics outputs. */
  onStart?: ((live: LiveLoad) => void) | undefined;
}

/** The first wallet read after the load that failed because the target no longer answers (an exit-3 error), if any. */
function targetLost(verdicts: readonly LoadVerdict[]): { code: string; message: string } | undefined {
  for (const v of verdicts) {
    const code = v.details?.['errorCode'];
    if (v.verdict === 'ERROR' && typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) && ERROR_CODES[code as ErrorCode].exit === 3)
      return { code, message: v.message };
  }
  return undefined;
}

/** When one of the harness's own requests may have been admitted, on the target clock: the exchange's span, widened by a millisecond each side. */
function admissionSpan(res: ApiResponse): { sentAt: number; receivedAt: number } {
  const x = res.exchange;
  return { sentAt: x.startedAt - 1, receivedAt: x.startedAt + x.durationMs + 1 };
}

/**
 * How far to move the clock (ms from `nowMs`) to reach the latest instant
 * the last 429 of any agency's read bucket promised a slot free, or
 * undefined when no read bucket was refused.
 */
function promisedSlotMs(logs: readonly BucketLog[], agencies: ReadonlyArray<{ id: string }>, readBucket: string, nowMs: number): number | undefined {
  const ids = new Set(agencies.map((a) => a.id));
  let latest: number | undefined;
  for (const log of logs) {
    if (log.bucket !== readBucket || !ids.has(log.agency)) continue;
    let last = -1;
    for (let i = 0; i < log.status.length; i++)
      if (log.status[i] === log.rateLimitedStatus && (last < 0 || log.receivedAt[i]! > log.receivedAt[last]!)) last = i;
    const ra = last < 0 ? Number.NaN : log.retryAfterS[last]!;
    if (!Number.isFinite(ra) || ra < 0) continue;
    const promised = log.receivedAt[last]! + ra * 1000;
    latest = latest === undefined ? promised : Math.max(latest, promised);
  }
  return latest === undefined ? undefined : Math.max(0, Math.ceil(latest - nowMs));
}

/** The agencies of shard `index` of `count` (1-based): agency k when k mod count = index − 1. */
export function shardAgencies<T>(agencies: readonly T[], shard?: { index: number; count: number }): T[] {
  if (!shard) return [...agencies];
  return agencies.filter((_, k) => k % shard.count === shard.index - 1);
}

/** The agencies a load of `target` takes: its shard's, unless the target already holds only those. */
export function loadAgencies(target: Pick<LoadTarget, 'agencies' | 'sharded'>, shard?: { index: number; count: number }): LoadAgency[] {
  return target.sharded === true ? [...target.agencies] : shardAgencies(target.agencies, shard);
}

/**
 * Runs a load: autocannon replaying scenarios (or the fast signed search)
 * for many agencies at once, optionally the paced limit push beside it;
 * then judges every agency's buckets from the recorded admission intervals
 * and reconciles every wallet, computes the figures and the gates, and
 * returns the run result (`load` holds the {@link LoadResult}).
 */
export async function runLoad(o: LoadRunOptions): Promise<LoadRunResult> {
  const { profile, now } = o.target;
  const startedIso = new Date().toISOString();
  const t0 = Date.now();
  const agencies = loadAgencies(o.target, o.shard);
  const rateLimitedStatus = profile.errors.rate_limited.status;
  const recorder = new LoadRecorder({ rateLimitedStatus });
  const tally = new WalletTally({ rateLimitedStatus });
  const readBucket = bucketOf(profile, 'GET', false);
  const windowMs = profile.limits.window_s * 1000;
  const apis = new Map<string, ClosableTargetApi>(
    agencies.map((a) => [a.id, createTargetApi({ profile, agency: { id: a.id, keyId: a.keyId, secret: a.secret }, now })]),
  );
  const wallets: LoadWallets = { profile, apis, advance: o.target.advance, now, onWait: o.onWait, signal: o.signal };
  // The harness's own reads take bucket slots too: the verdicts must see every request that used one.
  const noteAdmission: NoteAdmission = (agency, op, res) => {
    const x = res.exchange;
    const rl = res.rateLimit;
    const { sentAt, receivedAt } = admissionSpan(res);
    const r = {
      op,
      method: x.request.method.toUpperCase(),
      agency,
      bucket: readBucket,
      sentAt,
      receivedAt,
      latencyMs: x.durationMs,
      status: res.status,
      retryAfterS: rl.retryAfterS,
      remaining: res.status === rateLimitedStatus ? rl.remaining : undefined,
      code: undefined,
      expected: false,
    };
    recorder.record(r);
    recorder.reading(r, rl);
  };
  try {
    const plan = planLoad(profile, o, agencies.length);
    o.onStart?.(liveLoad({ ...o, recorder, profile, plan, agencies, now, startedAt: now() }));
    const opening = await openWallets(
      wallets,
      agencies.map((a) => a.id),
      noteAdmission,
    );
    for (const [id, w] of opening) if (w.ok && w.balance !== undefined) tally.spending.open(id, w.balance, w.currency);
    const span = await driveLoad({
      ...o,
      profile,
      agencies,
      apis,
      plan,
      recorder,
      wallet: tally,
      now,
      runStartedMs: t0,
      gracefulStopS: o.gracefulStopS ?? GRACEFUL_STOP_S,
    });
    // A refusal the load's own traffic made correct (its bookings spent the wallet, or redeemed the quote) is no error of the service.
    const errs = profile.errors;
    const explained = tally.spending.explained({ insufficientFunds: errs.insufficient_funds, quoteAlreadyRedeemed: errs.quote_already_redeemed });
    for (const e of explained) recorder.explain(e.op, e.receivedAt, e.status, e.code);
    // Requests cut off when the load stopped may still be executing; let them settle. A stopped load reads no wallet after it: no pause.
    if (!o.signal?.aborted)
      await announcedSleep(
        o.settleMs ?? SETTLE_MS,
        'letting requests cut off at the stop finish at the service before the wallets are read',
        o.onWait,
        o.signal,
      ).catch(() => undefined);
    // The load filled the read buckets. A movable clock goes to the instant the last 429 of every read bucket promised a
    // slot: the first wallet read of each agency puts that promise to the test (a load shorter than its Retry-After judged none).
    // Never past a window: a Retry-After beyond it is a verdict (FAIL), not a wait.
    if (o.target.advance && !o.signal?.aborted)
      await o.target.advance(Math.min(promisedSlotMs(recorder.bucketLogs(), agencies, readBucket, now()) ?? Infinity, windowMs + 1000));
    // The reads after the load take slots and test promises: the verdicts see them, the figures do not.
    const closingNote: NoteAdmission = (agency, _op, res) => {
      const refused = res.status === rateLimitedStatus;
      recorder.admission({
        agency,
        bucket: readBucket,
        ...admissionSpan(res),
        status: res.status,
        retryAfterS: refused ? res.rateLimit.retryAfterS : undefined,
        remaining: refused ? res.rateLimit.remaining : undefined,
      });
    };
    const walletVerdicts = await reconcileWallets(wallets, opening, tally, closingNote);
    // A bucket whose answers never told its state: empty only on a mock the harness started for this load.
    const names = { limit: o.target.profile.headers.ratelimit_limit, remaining: o.target.profile.headers.ratelimit_remaining };
    const verdicts = judgeBuckets(recorder.bucketLogs(), agencies, readBucket, windowMs, o.target.embedded ? 'fresh-mock' : 'unknown', names);
    verdicts.push(...walletVerdicts);
    verdicts.sort((x, y) => x.id.localeCompare(y.id));
    // A stop while the wallets were read after a load that ran its course stops the run all the same: its report says so.
    const stoppedAfter = o.signal?.aborted === true && !span.interrupted;
    if (stoppedAfter) span.interrupted = true;
    const lost = o.signal?.aborted ? undefined : targetLost(verdicts);
    const notes = [
      ...(o.target.notes ?? []),
      ...plan.notes,
      ...span.notes,
      ...tally.spending.notes(explained),
      ...(stoppedAfter ? ['stopped (interrupted) while the wallets were read after the load: the wallets not read are not reconciled'] : []),
      ...(lost ? [`the target stopped answering during the load (${lost.message}): the figures hold what was measured before`] : []),
    ];
    const load = loadResultOf(recorder, { ...o, plan, span, agencies: agencies.map((a) => a.id), verdicts, notes });
    if (lost) load.targetError = lost;
    load.target = { name: profile.name, baseUrl: profile.base_url };
    load.gates = evaluateLoadGates(load, o.thresholds, o.baseline);
    return toRunResult(load, {
      command: o.command ?? 'load',
      profile,
      embedded: o.target.embedded,
      startedIso,
      durationMs: Date.now() - t0,
      ...(o.runId !== undefined ? { runId: o.runId } : {}),
    });
  } finally {
    await Promise.allSettled([...apis.values()].map((api) => api.close()));
  }
}
