/**
 * Rate-limit verdicts from recorded admission times. A request's admission
 * instant is unknown within [sentAt, receivedAt]; every verdict here only
 * reports a violation that holds whatever those instants were.
 */

/** One request of one agency's bucket as a load run recorded it (ms, target clock). */
export interface Admission {
  sentAt: number;
  receivedAt: number;
  /** true when admitted (not 429). */
  admitted: boolean;
  /** Retry-After of a 429, seconds (undefined when missing). */
  retryAfterS?: number | undefined;
  /** Exchange or request id for evidence. */
  ref?: string | undefined;
}

/** A proven breach of the limit: more than `limit` admitted within one window. */
interface OverAdmission {
  windowStart: number;
  /** Where the window ends (its start plus the window), target clock. */
  windowEnd: number;
  admittedInWindow: number;
  /** The first request the window admitted over the limit: its ref and when it was sent. */
  firstOver: { ref: string; sentAt: number };
  refs: string[];
}

/** A proven early refusal: a 429 while fewer than `limit - tolerance` could have been admitted in its window. */
interface EarlyRefusal {
  at: number;
  admittedAtMost: number;
  ref?: string | undefined;
}

/** A 429 whose Retry-After is missing, or refuted by later admissions. */
interface RetryAfterFault {
  at: number;
  retryAfterS: number | undefined;
  problem: 'missing' | 'beyond-window' | 'too-long' | 'too-short';
  ref?: string | undefined;
}

/**
 * Finds windows that provably admitted more than `limit`: for each admitted
 * request i (sorted by sentAt), the requests admitted with sentAt ≥ sentAt_i
 * and receivedAt < sentAt_i + window all fell inside one window.
 */
export function findOverAdmissions(records: readonly Admission[], limit: number, windowMs: number): OverAdmission[] {
  const admitted = records.filter((r) => r.admitted).sort((a, b) => a.sentAt - b.sentAt);
  const out: OverAdmission[] = [];
  let lastReported = -Infinity;
  for (let i = 0; i < admitted.length; i++) {
    const start = admitted[i]!.sentAt;
    const end = start + windowMs;
    const inside: Admission[] = [];
    for (let j = i; j < admitted.length && admitted[j]!.sentAt < end; j++) {
      if (admitted[j]!.receivedAt < end) inside.push(admitted[j]!);
    }
    if (inside.length > limit && start >= lastReported + windowMs) {
      const over = inside[limit]!;
      out.push({
        windowStart: start,
        windowEnd: end,
        admittedInWindow: inside.length,
        firstOver: { ref: over.ref ?? '', sentAt: over.sentAt },
        refs: inside.slice(limit - 1, limit + 1).map((r) => r.ref ?? ''),
      });
      lastReported = start;
    }
  }
  return out;
}

/** Admissions that others made before the load (another run, another pipeline): at most `count`, none after `admittedBy`. */
export interface PriorAdmissions {
  count: number;
  admittedBy: number;
}

/**
 * Finds 429s that are provably early: at most `admittedAtMost` requests could
 * have been admitted in the window before it, and that is below `limit - tolerance`.
 * `prior` counts what the bucket held before the load in every window that
 * may reach back before `prior.admittedBy`.
 */
export function findEarlyRefusals(records: readonly Admission[], limit: number, windowMs: number, tolerance = 1, prior?: PriorAdmissions): EarlyRefusal[] {
  const admitted = records.filter((r) => r.admitted);
  const possibleIn = admissionsCounter(admitted);
  const out: EarlyRefusal[] = [];
  for (const r of records) {
    if (r.admitted) continue;
    // An admitted request could count in this refusal's window if it may have been admitted after receivedAt − window and before receivedAt.
    const from = r.sentAt - windowMs;
    const before = prior !== undefined && prior.admittedBy > from ? prior.count : 0;
    const possible = before + possibleIn(from, r.receivedAt);
    if (possible < limit - tolerance) out.push({ at: r.sentAt, admittedAtMost: possible, ref: r.ref });
  }
  return out;
}

/**
 * Counts the admissions answered after `from` and sent by `to`. When each was
 * sent before it was answered (the recorder's always are) and `from ≤ to`,
 * those are the ones sent by `to` less those answered by `from` (sent by then
 * too): two binary searches, where a scan of every admission for every 429
 * grew with the square of the load (a minute of load judged in seconds).
 */
function admissionsCounter(admitted: readonly Admission[]): (from: number, to: number) => number {
  const scan = (from: number, to: number): number => admitted.filter((a) => a.receivedAt > from && a.sentAt <= to).length;
  if (!admitted.every((a) => a.sentAt <= a.receivedAt)) return scan;
  const sent = Float64Array.from(admitted, (a) => a.sentAt).sort();
  const received = Float64Array.from(admitted, (a) => a.receivedAt).sort();
  return (from, to) => (from <= to ? countAtMost(sent, to) - countAtMost(received, from) : scan(from, to));
}

/** How many values of `sorted` (ascending) are at most `x`. */
function countAtMost(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Judges each 429's Retry-After against what followed. Retry-After is the
 * ceiling of the wait, so the slot frees within the last second before the
 * promised instant. Missing is a fault, and so is one longer than the window
 * (`windowMs`), whatever followed: a slot frees within one window, as RL-03
 * judges it in the suite; a later request of the bucket admitted
 * (response received) more than a second before the earliest promised instant
 * refutes it as too long; a request sent at or after the latest promised
 * instant and refused shows it too short, unless an admission that may have
 * been decided between the two (answered after the 429 was sent, sent before
 * the refusal was answered) could have taken the slot that freed.
 */
export function findRetryAfterFaults(records: readonly Admission[], windowMs = Number.POSITIVE_INFINITY): RetryAfterFault[] {
  const sorted = [...records].sort((a, b) => a.sentAt - b.sentAt);
  const admittedOnly = sorted.filter((r) => r.admitted);
  const mayHaveTakenSlot = admissionsBetween(admittedOnly);
  // The earliest answer among the admissions sent from each index on: whether one sent after an instant was answered before another, by a binary search.
  const earliestAnswerFrom = new Float64Array(admittedOnly.length);
  let earliest = Number.POSITIVE_INFINITY;
  for (let k = admittedOnly.length - 1; k >= 0; k--) {
    // A comparison, not Math.min: an answer instant that is not a number (never recorded) is passed over, as the scan passed it.
    if (admittedOnly[k]!.receivedAt < earliest) earliest = admittedOnly[k]!.receivedAt;
    earliestAnswerFrom[k] = earliest;
  }
  const out: RetryAfterFault[] = [];
  for (const r of sorted) {
    if (r.admitted) continue;
    if (r.retryAfterS === undefined || !Number.isFinite(r.retryAfterS) || r.retryAfterS < 1) {
      out.push({ at: r.sentAt, retryAfterS: r.retryAfterS, problem: 'missing', ref: r.ref });
      continue;
    }
    if (r.retryAfterS * 1000 > windowMs) {
      out.push({ at: r.sentAt, retryAfterS: r.retryAfterS, problem: 'beyond-window', ref: r.ref });
      continue;
    }
    const earliestPromise = r.sentAt + r.retryAfterS * 1000;
    const latestPromise = r.receivedAt + r.retryAfterS * 1000;
    // Only a request sent after the 429 arrived was surely admitted after the refusal: one sent earlier may have overtaken it.
    const firstAfter = firstSentAtOrAfter(admittedOnly, r.receivedAt);
    if (!Number.isNaN(r.receivedAt) && firstAfter < admittedOnly.length && earliestAnswerFrom[firstAfter]! < earliestPromise - 1000) {
      out.push({ at: r.sentAt, retryAfterS: r.retryAfterS, problem: 'too-long', ref: r.ref });
      continue;
    }
    // The first request sent at or after the promised instant: refused, it shows the promise short, unless an
    // admission that may have been decided between the two took the slot that freed (one in flight beside the 429
    // and answered after it, as two connections of one agency do).
    const n = sorted[firstSentAtOrAfter(sorted, latestPromise)];
    if (n !== undefined && !n.admitted && !mayHaveTakenSlot(r.sentAt, n.receivedAt)) {
      out.push({ at: r.sentAt, retryAfterS: r.retryAfterS, problem: 'too-short', ref: r.ref });
    }
  }
  return out;
}

/** Index of the first record sent at or after `t` (after it when `strictly`), records sorted by sentAt; their length when none is. */
function firstSentAtOrAfter(sorted: readonly Admission[], t: number, strictly = false): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!.sentAt;
    if (at < t || (strictly && at === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Asks, in logarithmic time, whether an admission may have been decided
 * between two instants: one answered at or after `from` and sent at or
 * before `until` (admissions sorted by sentAt).
 */
function admissionsBetween(admitted: readonly Admission[]): (from: number, until: number) => boolean {
  // The latest answer among the admissions sent up to each index.
  const latestAnswer: number[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  for (const a of admitted) latestAnswer.push((latest = Math.max(latest, a.receivedAt)));
  return (from, until) => {
    const last = firstSentAtOrAfter(admitted, until, true) - 1;
    return last >= 0 && latestAnswer[last]! >= from;
  };
}

/**
 * The 429s whose Retry-After what followed put to the test: a later request of
 * the bucket was admitted after the 429 arrived, or one was sent at or after
 * the latest instant it promised. The others could not be judged either way
 * (a load shorter than the Retry-After never comes back to try).
 */
export function testedRetryAfters(records: readonly Admission[]): Admission[] {
  let lastSent = Number.NEGATIVE_INFINITY;
  let lastAdmittedSent = Number.NEGATIVE_INFINITY;
  for (const n of records) {
    lastSent = Math.max(lastSent, n.sentAt);
    if (n.admitted) lastAdmittedSent = Math.max(lastAdmittedSent, n.sentAt);
  }
  return records.filter((r) => {
    if (r.admitted || r.retryAfterS === undefined || !Number.isFinite(r.retryAfterS) || r.retryAfterS < 1) return false;
    // A request sent after the promise is never the 429 itself: that one was sent before it arrived.
    return lastAdmittedSent >= r.receivedAt || lastSent >= r.receivedAt + r.retryAfterS * 1000;
  });
}
