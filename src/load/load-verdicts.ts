import type { BucketLog } from './load-recorder.js';
import { UNKNOWN_OUTCOME } from './load-recorder.js';
import type { LoadVerdict } from '../report/load-result.js';
import { findEarlyRefusals, findOverAdmissions, findRetryAfterFaults, testedRetryAfters, type Admission } from './window-verdicts.js';

/** Above this many refusals in one bucket, refusals are thinned to the first per slot (see {@link judgeBucket}). */
export const THIN_ABOVE = 5_000;
/** Width of a thinning slot, ms. */
export const THIN_SLOT_MS = 20;

/**
 * Judges one agency's bucket from what the load recorded: no window admitted
 * more than the limit; no 429 while fewer than limit − 1 could have been
 * admitted; every 429's Retry-After present and not refuted by what followed.
 * Every verdict holds whatever the admission instants within [sent, received].
 *
 * A request with no response may have been admitted: it counts as possibly
 * admitted for early refusals and never as proven for over-admission. Under
 * heavy load refusals are thinned to the first of each 20 ms slot, which can
 * only miss a fault, never invent one.
 */
export function judgeBucket(log: BucketLog, limit: number, windowMs: number): LoadVerdict[] {
  const proven: Admission[] = [];
  const possible: Admission[] = [];
  let refusals: Admission[] = [];
  for (let i = 0; i < log.status.length; i++) {
    const status = log.status[i]!;
    const sentAt = log.sentAt[i]!;
    const receivedAt = log.receivedAt[i]!;
    if (status === 429) {
      const ra = log.retryAfterS[i]!;
      refusals.push({ sentAt, receivedAt, admitted: false, retryAfterS: Number.isNaN(ra) ? undefined : ra, ref: `#${i}` });
    } else if (status === UNKNOWN_OUTCOME) {
      possible.push({ sentAt, receivedAt: Number.POSITIVE_INFINITY, admitted: true, ref: `#${i}` });
    } else if (status !== 401) {
      const a = { sentAt, receivedAt, admitted: true, ref: `#${i}` };
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
  const counts = { admitted: proven.length, refused: totalRefusals, judgedRefusals: refusals.length, unknown: possible.length - proven.length, limit, windowMs };
  const over = findOverAdmissions(proven, limit, windowMs);
  const early = findEarlyRefusals([...possible, ...refusals], limit, windowMs, 1);
  const faults = findRetryAfterFaults([...proven, ...refusals]);
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
          message: `${where}: a 60 s window admitted ${over[0]!.admittedInWindow} requests, over the limit of ${limit} (${over.length} such window(s))`,
          details: { ...counts, windows: over.slice(0, 5) },
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
  out.push(
    early.length > 0
      ? {
          id: id('early-throttle'),
          kind: 'early-throttle',
          agency: log.agency,
          bucket: log.bucket,
          verdict: 'FAIL',
          message: `${where}: ${early.length} request(s) refused while at most ${early[0]!.admittedAtMost} of ${limit} could have been admitted in the window`,
          details: { ...counts, refusals: early.slice(0, 5) },
        }
      : {
          id: id('early-throttle'),
          kind: 'early-throttle',
          agency: log.agency,
          bucket: log.bucket,
          verdict: 'PASS',
          message: totalRefusals === 0 ? `${where}: never refused (limit ${limit} not reached)` : `${where}: no refusal before the limit (tolerance one request)`,
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
          message: `${where}: ${faults.length} 429(s) with a wrong Retry-After (first: ${faults[0]!.problem}, ${String(faults[0]!.retryAfterS)} s)`,
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
              ? `${where}: no 429 to judge`
              : tested === 0
                ? `${where}: ${untestedWhy(refusals, possible)}`
                : `${where}: every judged 429 carried a Retry-After that what followed agrees with (${tested} of ${totalRefusals} put to the test)`,
          details: { ...counts, testedRetryAfters: tested },
        },
  );
  return out;
}

/** Why no 429's Retry-After could be judged: the load never came back after one elapsed. */
function untestedWhy(refusals: readonly Admission[], admitted: readonly Admission[]): string {
  const shortest = Math.min(...refusals.map((r) => r.retryAfterS ?? Number.POSITIVE_INFINITY));
  const first = Math.min(...refusals.map((r) => r.receivedAt));
  const last = Math.max(...[...refusals, ...admitted].map((r) => r.sentAt));
  const spanS = Math.max(0, (last - first) / 1000);
  return `${refusals.length} 429(s), but no Retry-After could be judged: no request of this bucket followed a 429 once its Retry-After (shortest ${shortest} s) had elapsed, the load's last request came ${spanS.toFixed(1)} s after the first 429; run the load for longer than the Retry-After to judge it`;
}

/**
 * Judges every bucket the load recorded for the given agencies (see
 * {@link judgeBucket}), in agency then bucket order; logs of other agencies
 * (another shard's) are left out.
 */
export function judgeBuckets(
  logs: readonly BucketLog[],
  agencies: ReadonlyArray<{ id: string; limits: { read: number; write: number } }>,
  readBucket: string,
  windowMs: number,
): LoadVerdict[] {
  const byId = new Map(agencies.map((a) => [a.id, a]));
  const verdicts: LoadVerdict[] = [];
  for (const log of [...logs].sort((x, y) => `${x.agency}/${x.bucket}`.localeCompare(`${y.agency}/${y.bucket}`))) {
    const a = byId.get(log.agency);
    if (!a) continue;
    verdicts.push(...judgeBucket(log, log.bucket === readBucket ? a.limits.read : a.limits.write, windowMs));
  }
  return verdicts;
}
