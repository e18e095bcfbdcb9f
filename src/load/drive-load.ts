import type { ClosableTargetApi } from '../api/index.js';
import type { Profile } from '../profile/index.js';
import { runAutocannonLoad } from './generate/autocannon-load.js';
import type { LoadAgency } from './generate/load-agency.js';
import type { LoadPlan } from './generate/load-plan.js';
import type { LoadRecorder } from './measure/load-recorder.js';
import { PUSH_MAX_IN_FLIGHT, pushLimits } from './generate/push-limits.js';
import type { OnLoadWait } from './announced-wait.js';
import type { WalletTally } from './judge/wallet-reconciliation.js';

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

/** What drives the load and where its outcomes go. */
interface DriveLoadOptions {
  profile: Profile;
  agencies: readonly LoadAgency[];
  apis: ReadonlyMap<string, ClosableTargetApi>;
  plan: LoadPlan;
  durationS: number;
  maxRequests?: number | undefined;
  connections: number;
  pushLimits: boolean;
  recorder: LoadRecorder;
  wallet: WalletTally;
  /** Target clock, ms since epoch. */
  now: () => number;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: LoadProgress) => void) | undefined;
  /** Seconds the requests in flight at the end of the duration get to finish; the rest are counted as cut off. */
  gracefulStopS: number;
  /** Told of a stop whose grace takes longer than a second. */
  onWait?: OnLoadWait | undefined;
  /** Real ms (Date.now) the run started: progress counts elapsed time from there. */
  runStartedMs: number;
}

/** When the load ran (target clock), whether it was stopped early, and what the senders had to say. */
export interface LoadSpan {
  startedAt: number;
  finishedAt: number;
  interrupted: boolean;
  notes: string[];
}

/** Reports progress once a second; returns the function that stops it. */
function reportProgress(recorder: LoadRecorder, t0: number, durationS: number, onProgress: (p: LoadProgress) => void): () => void {
  let last = 0;
  const timer = setInterval(() => {
    const c = recorder.counts();
    onProgress({
      elapsedS: Math.round((Date.now() - t0) / 1000),
      durationS,
      requests: c.requests,
      rps: c.requests - last,
      rateLimited: c.rateLimited,
      errors: c.errors,
    });
    last = c.requests;
  }, 1000);
  return () => clearInterval(timer);
}

/**
 * Runs autocannon (scenarios or signed searches) and the paced limit push side
 * by side until the duration is up, a request cap is reached or `signal`
 * aborts; outcomes go to the recorder and the wallet tally.
 */
export async function driveLoad(o: DriveLoadOptions): Promise<LoadSpan> {
  const { profile, agencies, plan, recorder, wallet, now } = o;
  const notes: string[] = [];
  const stopProgress = o.onProgress ? reportProgress(recorder, o.runStartedMs, o.durationS, o.onProgress) : undefined;
  const startedAt = now();
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) stopAll.abort();
  const endTimer = setTimeout(() => stopAll.abort(), o.durationS * 1000);
  const work: Array<Promise<unknown>> = [];
  const interruptedNow = (): boolean => o.signal?.aborted === true;
  if (o.connections > 0 && agencies.length > 0 && !stopAll.signal.aborted) {
    work.push(
      runAutocannonLoad({
        profile,
        agencies,
        connections: o.connections,
        durationS: o.durationS,
        maxRequests: o.maxRequests,
        journeys: plan.mode === 'scenarios' ? plan.journeys : undefined,
        search: plan.mode === 'search' ? { product: plan.product } : undefined,
        recorder,
        wallet,
        now,
        // autocannon keeps its own end (the duration, then the grace); only an interruption cuts it short.
        signal: o.signal,
        graceS: o.gracefulStopS,
        onWait: o.onWait,
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
        agencies: agencies.map((a) => ({ agency: a, api: o.apis.get(a.id)!, product: plan.product })),
        paceMs,
        untilMs: o.durationS * 1000,
        recorder,
        wallet,
        now,
        signal: stopAll.signal,
      }).then((s) =>
        notes.push(
          `paced push: ${s.sent} of ${s.planned} planned requests, ${s.probes} Retry-After probe(s); worst lag behind plan ${s.maxLagMs.toFixed(1)} ms, worst latency from the planned instant ${s.maxLatencyMs.toFixed(1)} ms` +
            (s.sent < s.planned && !interruptedNow()
              ? `; the plan outran what ${PUSH_MAX_IN_FLIGHT} requests in flight could carry, so some limits were never reached: a longer --duration (the push spreads each limit + 5% over half of it) or fewer agencies`
              : ''),
        ),
      ),
    );
  }
  try {
    await Promise.all(work);
  } finally {
    clearTimeout(endTimer);
    stopProgress?.();
    o.signal?.removeEventListener('abort', onAbort);
  }
  const finishedAt = now();
  const interrupted = o.signal?.aborted === true;
  if (interrupted) notes.push('stopped early (interrupted); figures and verdicts cover what ran');
  const cutOff = recorder.counts().cutOff;
  if (cutOff > 0)
    notes.push(
      `${cutOff} request(s) still in flight when the load stopped${interrupted ? '' : ` and its ${o.gracefulStopS} s grace ran out`}: cut off at the stop, counted apart (not as errors); the verdicts count them as possibly admitted`,
    );
  return { startedAt, finishedAt, interrupted, notes };
}
