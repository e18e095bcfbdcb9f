import type { BucketLog, HeaderExample, RateReading } from '../measure/load-recorder.js';
import { UNKNOWN_OUTCOME } from '../measure/load-recorder.js';
import type { LoadVerdict } from '../../results/load-result.js';
import { findEarlyRefusals, findOverAdmissions, findRetryAfterFaults, testedRetryAfters, type Admission, type PriorAdmissions } from './window-verdicts.js';
import { windowTimeline } from './window-timeline.js';

/**
 * How a bucket's state at the start of the load was known: from the
 * X-RateLimit-* headers of its first answer, assumed empty because the
 * harness started the mock for this load, or not at all.
 */
type BucketStartKnown = 'headers' | 'fresh-mock' | 'unknown';

/** What a bucket held when the load began, as the early-throttle verdict uses it. */
interface BucketStart {
  known: BucketStartKnown;
  /** Requests admitted before the load and possibly still in the window (0 unless known from headers). */
  priorAdmitted: number;
  /** Target-clock instant of the reading: every prior admission came before it. */
  readAt?: number | undefined;
}

/**
 * What the bucket held before the load, from its first answer's headers:
 * limit − remaining counts every admission in the window at that instant,
 * the request itself (when admitted) and the load's own requests surely
 * admitted before it included; what is left is others' traffic, at most.
 */
export function priorFromReading(log: BucketLog, r: RateReading, windowMs: number): number {
  let ours = 0;
  for (let i = 0; i < log.status.length; i++) {
    const st = log.status[i]!;
    if (st === log.rateLimitedStatus || st === UNKNOWN_OUTCOME || st === 401) continue;
    if (log.receivedAt[i]! < r.sentAt && log.sentAt[i]! > r.receivedAt - windowMs) ours += 1;
  }
  return Math.max(0, r.limit - r.remaining - (r.admitted ? 1 : 0) - ours);
}

/** The start state of a bucket: its reading when it has one, else what the target lets the harness assume. */
export function bucketStart(log: BucketLog, windowMs: number, unread: 'fresh-mock' | 'unknown'): BucketStart {
  if (log.start) return { known: 'headers', priorAdmitted: priorFromReading(log, log.start, windowMs), readAt: log.start.receivedAt };
  return { known: unread, priorAdmitted: 0 };
}

function startWords(start: BucketStart): string {
  if (start.known === 'headers')
    return `start known from the X-RateLimit-* headers of its first answer: ${start.priorAdmitted} request(s) from before the load in the window`;
  if (start.known === 'fresh-mock') return 'start assumed empty: the harness started this mock for the load';
  return 'start unknown';
}

/** Above this many refusals in one bucket, refusals are thinned to the first per slot (see {@link judgeBucket}). */
const THIN_ABOVE = 5_000;
/** Width of a thinning slot, ms. */
const THIN_SLOT_MS = 20;

/**
 * Judges one agency's bucket from what the load recorded: no window admitted
 * more than the limit; no 429 while fewer than limit − 1 could have been
 * admitted, counting what the bucket held at the start (`start`), nor one
 * whose own X-RateLimit-Remaining leaves more than one slot; every 429's
 * Retry-After present and not refuted by what followed.
 * Every verdict holds whatever the admission instants within [sent, received].
 *
 * A request with no response may have been admitted: it counts as possibly
 * admitted for early refusals and never as proven for over-admission. Under
 * heavy load refusals are thinned to the first of each 20 ms slot, which can
 * only miss a fault, never invent one.
 */
export function judgeBucket(log: BucketLog, limit: number, windowMs: number, start: BucketStart = { known: 'fresh-mock', priorAdmitted: 0 }): LoadVerdict[] {
  const proven: Admission[] = [];
  const possible: Admission[] = [];
  let refusals: Admission[] = [];
  // A 429 that itself says slots are left: the service contradicts its own count, whatever the bucket held before.
  const selfContradicted: Array<{ at: number; remaining: number; ref: string }> = [];
  for (let i = 0; i < log.status.length; i++) {
    const status = log.status[i]!;
    const sentAt = log.sentAt[i]!;
    const receivedAt = log.receivedAt[i]!;
    if (status === log.rateLimitedStatus) {
      const ra = log.retryAfterS[i]!;
      const left = log.remaining[i] ?? Number.NaN;
      if (left > 1) selfContradicted.push({ at: sentAt, remaining: left, ref: `#${i + 1}` });
      refusals.push({ sentAt, receivedAt, admitted: false, retryAfterS: Number.isNaN(ra) ? undefined : ra, ref: `#${i + 1}` });
    } else if (status === UNKNOWN_OUTCOME) {
      possible.push({ sentAt, receivedAt: Number.POSITIVE_INFINITY, admitted: true, ref: `#${i + 1}` });
    } else if (status !== 401) {
      const a = { sentAt, receivedAt, admitted: true, ref: `#${i + 1}` };
      proven.push(a);
      possible.push(a);
    }
  }
  const totalRefusals = refusals.length;
  if (refusals.length > THIN_ABOVE) {
    refusals.sort((a, b) => a.sentAt - b.sentAt);
    let lastSlot = Number.NaN;
    refusals = refusals.filter((r) => {
      const slot = Math.floor(r.sentAt / THIN_SLOT_MS);
      if (slot === lastSlot) return false;
      lastSlot = slot;
      return true;
    });
  }
  const where = `${log.agency} ${log.bucket}`;
  const refused = log.rateLimitedStatus;
  const counts = {
    admitted: proven.length,
    refused: totalRefusals,
    judgedRefusals: refusals.length,
    unknown: possible.length - proven.length,
    limit,
    windowMs,
    start,
  };
  const over = findOverAdmissions(proven, limit, windowMs);
  // A refusal sent before the reading arrived may have been decided before it, when others' admissions could still count: only later ones are judged.
  const prior: PriorAdmissions | undefined = start.readAt !== undefined ? { count: start.priorAdmitted, admittedBy: start.readAt } : undefined;
  const judged = prior ? refusals.filter((r) => r.sentAt >= prior.admittedBy) : refusals;
  const early = start.known === 'unknown' ? [] : findEarlyRefusals([...possible, ...judged], limit, windowMs, 1, prior);
  const faults = findRetryAfterFaults([...proven, ...refusals], windowMs);
  const tested = testedRetryAfters([...proven, ...refusals]).length;
  const id = (k: string) => `load:${k}:${log.agency}:${log.bucket}`;
  const out: LoadVerdict[] = [];
  out.push(
    over.length > 0
      ? {
          id: id('window-limit'),
          kind: 'window-limit',
          agency: log.agency,
          bucket: log.bucket,
          verdict: 'FAIL',
          message: `${where}: the ${windowMs / 1000} s window from ${iso(over[0]!.windowStart)} to ${iso(over[0]!.windowEnd)} (target clock) admitted ${over[0]!.admittedInWindow} requests, over the limit of ${limit}; the first over it was the bucket's request ${over[0]!.firstOver.ref} (in the order recorded), sent at ${iso(over[0]!.firstOver.sentAt)} (${over.length} such window(s))`,
          // The first window's admissions per second, for the report's card to draw it.
          details: { ...counts, windows: over.slice(0, 5), timeline: windowTimeline(proven, over[0]!.windowStart, windowMs) },
        }
      : {
          id: id('window-limit'),
          kind: 'window-limit',
          agency: log.agency,
          bucket: log.bucket,
          verdict: 'PASS',
          message: `${where}: no window admitted more than ${limit} (${proven.length} admitted, ${totalRefusals} refused)`,
          details: counts,
        },
  );
  const startText = startWords(start);
  const earlyBase = { id: id('early-throttle'), kind: 'early-throttle' as const, agency: log.agency, bucket: log.bucket };
  out.push(
    selfContradicted.length > 0
      ? {
          ...earlyBase,
          verdict: 'FAIL',
          message: `${where}: ${selfContradicted.length} request(s) refused while the refusal's own X-RateLimit-Remaining said ${selfContradicted[0]!.remaining} of ${limit} were left`,
          details: { ...counts, selfContradicted: selfContradicted.slice(0, 5), refusals: early.slice(0, 5) },
        }
      : early.length > 0
        ? {
            ...earlyBase,
            verdict: 'FAIL',
            message: `${where}: ${early.length} request(s) refused while at most ${early[0]!.admittedAtMost} of ${limit} could have been admitted in the window (${startText})`,
            details: { ...counts, refusals: early.slice(0, 5) },
          }
        : start.known === 'unknown' && totalRefusals > 0
          ? {
              ...earlyBase,
              verdict: 'SKIP',
              message: `${where}: early refusals cannot be judged: the bucket's state at the start is unknown (its answers carried no X-RateLimit-Limit and X-RateLimit-Remaining, and the harness did not start this target), so the ${totalRefusals} refusal(s) may be due to traffic from before the load`,
              details: counts,
            }
          : {
              ...earlyBase,
              verdict: 'PASS',
              message:
                totalRefusals === 0
                  ? `${where}: never refused (limit ${limit} not reached; ${startText})`
                  : `${where}: no refusal before the limit (tolerance one request; ${startText})`,
              details: counts,
            },
  );
  out.push(
    faults.length > 0
      ? {
          id: id('retry-after'),
          kind: 'retry-after',
          agency: log.agency,
          bucket: log.bucket,
          verdict: 'FAIL',
          message: `${where}: ${faults.length} ${refused}(s) with a wrong Retry-After (first: ${faults[0]!.problem}, ${String(faults[0]!.retryAfterS)} s${faults[0]!.problem === 'beyond-window' ? `, longer than the window of ${windowMs / 1000} s: a slot frees within one window` : ''})`,
          details: { ...counts, faults: faults.slice(0, 5) },
        }
      : {
          id: id('retry-after'),
          kind: 'retry-after',
          agency: log.agency,
          bucket: log.bucket,
          // A verdict with nothing to judge is no pass: say why nothing could be judged.
          verdict: tested === 0 ? 'SKIP' : 'PASS',
          message:
            totalRefusals === 0
              ? `${where}: no ${refused} to judge`
              : tested === 0
                ? `${where}: ${untestedWhy(refusals, possible, refused)}`
                : `${where}: every judged ${refused} carried a Retry-After that what followed agrees with (${tested} of ${totalRefusals} put to the test)`,
          details: { ...counts, testedRetryAfters: tested },
        },
  );
  return out;
}

/** An instant of the target's clock as the messages show it. */
function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

/** The rate-limit header names the messages use (the profile's). */
interface RateHeaderNames {
  limit: string;
  remaining: string;
}

const DEFAULT_HEADER_NAMES: RateHeaderNames = { limit: 'X-RateLimit-Limit', remaining: 'X-RateLimit-Remaining' };

/** An answer of the tally, for a message: its status and what its headers said. */
function exampleWords(e: HeaderExample | undefined, names: RateHeaderNames): string {
  if (!e) return '';
  const said = (name: string, v: number | undefined): string => `${name} ${v === undefined ? 'absent' : String(v)}`;
  return ` (first: a ${e.status} sent at ${iso(e.sentAt)}, ${said(names.limit, e.limit)}, ${said(names.remaining, e.remaining)})`;
}

/**
 * Judges the rate-limit headers of a bucket's 2xx and 429 answers under load,
 * as RL-07 does in the suite, answer by answer (see {@link HeaderTally}):
 * each carries Limit and Remaining, Limit is the agency's limit of the
 * bucket, Remaining is below it on an admitted answer and 0 on a 429.
 */
export function judgeHeaders(log: BucketLog, limit: number, names: RateHeaderNames = DEFAULT_HEADER_NAMES): LoadVerdict {
  const base = { id: `load:headers:${log.agency}:${log.bucket}`, kind: 'headers' as const, agency: log.agency, bucket: log.bucket };
  const where = `${log.agency} ${log.bucket}`;
  const refused = log.rateLimitedStatus;
  const t = log.headers;
  if (!t || t.judged === 0)
    return { ...base, verdict: 'SKIP', message: `${where}: no 2xx or ${refused} answer whose rate-limit headers could be read`, details: { judged: 0 } };
  const problems: string[] = [];
  if (t.missing > 0) problems.push(`${t.missing} of ${t.judged} answers lacked ${names.limit} or ${names.remaining}${exampleWords(t.firstMissing, names)}`);
  for (const [value, count] of Object.entries(t.limits).filter(([v]) => v !== String(limit)))
    problems.push(`${count} answer(s) said ${names.limit} ${value}, the agency's ${log.bucket} limit is ${limit}${exampleWords(t.firstByLimit[value], names)}`);
  if (t.notBelowLimit > 0)
    problems.push(
      `${t.notBelowLimit} admitted answer(s) said ${names.remaining} was not below ${names.limit} after counting the request${exampleWords(t.firstNotBelowLimit, names)}`,
    );
  if (t.refusedWithRoom > 0)
    problems.push(`${t.refusedWithRoom} ${refused}(s) said ${names.remaining} was not 0${exampleWords(t.firstRefusedWithRoom, names)}`);
  const details = { judged: t.judged, limit, limits: t.limits, missing: t.missing, notBelowLimit: t.notBelowLimit, refusedWithRoom: t.refusedWithRoom };
  if (problems.length > 0) return { ...base, verdict: 'FAIL', message: `${where}: rate-limit headers wrong under load: ${problems.join('; ')}`, details };
  return {
    ...base,
    verdict: 'PASS',
    message: `${where}: ${names.limit} ${limit} and ${names.remaining} consistent on all ${t.judged} 2xx and ${refused} answers`,
    details,
  };
}

/** Why no refusal's Retry-After could be judged: the load never came back after one elapsed. */
function untestedWhy(refusals: readonly Admission[], admitted: readonly Admission[], refused: number): string {
  const shortest = Math.min(...refusals.map((r) => r.retryAfterS ?? Number.POSITIVE_INFINITY));
  const first = Math.min(...refusals.map((r) => r.receivedAt));
  const last = Math.max(...[...refusals, ...admitted].map((r) => r.sentAt));
  const spanS = Math.max(0, (last - first) / 1000);
  return `${refusals.length} ${refused}(s), but no Retry-After could be judged: no request of this bucket followed a ${refused} once its Retry-After (shortest ${shortest} s) had elapsed, the load's last request came ${spanS.toFixed(1)} s after the first ${refused}; run the load for longer than the Retry-After to judge it`;
}

/**
 * Judges every bucket the load recorded for the given agencies (see
 * {@link judgeBucket}), in agency then bucket order; logs of other agencies
 * (another shard's) are left out. A bucket whose answers never told its
 * state starts as `unread` says.
 */
export function judgeBuckets(
  logs: readonly BucketLog[],
  agencies: ReadonlyArray<{ id: string; limits: { read: number; write: number } }>,
  readBucket: string,
  windowMs: number,
  unread: 'fresh-mock' | 'unknown' = 'fresh-mock',
  names: RateHeaderNames = DEFAULT_HEADER_NAMES,
): LoadVerdict[] {
  const byId = new Map(agencies.map((a) => [a.id, a]));
  const verdicts: LoadVerdict[] = [];
  for (const log of [...logs].sort((x, y) => `${x.agency}/${x.bucket}`.localeCompare(`${y.agency}/${y.bucket}`))) {
    const a = byId.get(log.agency);
    if (!a) continue;
    const limit = log.bucket === readBucket ? a.limits.read : a.limits.write;
    verdicts.push(...judgeBucket(log, limit, windowMs, bucketStart(log, windowMs, unread)), judgeHeaders(log, limit, names));
  }
  return verdicts;
}
