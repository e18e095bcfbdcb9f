import { LatencyHistogram, type BucketCounts } from './latency-histogram.js';
import { LATENCY_OUTCOMES, type LatencyOutcome, type OperationFigures, type OutcomeLatency, type SecondFigures } from '../../results/load-result.js';

/** Status recorded for a request whose outcome never arrived (timeout, connection lost). */
export const UNKNOWN_OUTCOME = 0;

/**
 * What one answer's `X-RateLimit-Limit` and `X-RateLimit-Remaining` said
 * about its bucket (target-clock instants of the request that carried them).
 */
export interface RateReading {
  sentAt: number;
  receivedAt: number;
  limit: number;
  remaining: number;
  /** The answer was no rate-limit refusal: the request itself is counted in `limit − remaining`. */
  admitted: boolean;
}

/**
 * Every request of one agency's bucket, in parallel arrays (millions of
 * requests stay compact): target-clock send and receive instants, status
 * (0 = outcome unknown), the Retry-After of a rate-limit refusal and the
 * X-RateLimit-Remaining it carried (NaN when absent or not read).
 */
export interface BucketLog {
  agency: string;
  bucket: string;
  /** The status of a rate-limit refusal (the profile's `errors.rate_limited.status`, 429 by default): how `status` tells refusals from admissions. */
  rateLimitedStatus: number;
  sentAt: number[];
  receivedAt: number[];
  status: number[];
  retryAfterS: number[];
  remaining: number[];
  /** The first answer of the bucket that carried its limit and remaining: what the bucket held when the load began. */
  start?: RateReading | undefined;
  /** What the X-RateLimit-Limit and -Remaining headers of its 2xx and 429 answers said (see {@link HeaderTally}). */
  headers?: HeaderTally | undefined;
}

/** One answer whose rate-limit headers were wrong, kept as the example of its kind. */
export interface HeaderExample {
  sentAt: number;
  status: number;
  limit?: number | undefined;
  remaining?: number | undefined;
}

/**
 * The X-RateLimit-Limit and -Remaining headers of a bucket's answers under
 * load, tallied (bounded whatever the traffic): how many 2xx and 429 answers
 * were read, each Limit value and how often it came, and the answers that
 * broke a rule RL-07 holds the suite to: both headers present, Remaining
 * below Limit once an admitted request is counted, Remaining 0 on a 429.
 * Concurrent answers can arrive in any order, so Remaining falling by one
 * from answer to answer is not judged here.
 */
export interface HeaderTally {
  judged: number;
  /** Limit value → answers that carried it. */
  limits: Record<string, number>;
  missing: number;
  firstMissing?: HeaderExample | undefined;
  /** Admitted answers whose Remaining was not below their Limit. */
  notBelowLimit: number;
  firstNotBelowLimit?: HeaderExample | undefined;
  /** 429s whose Remaining was not 0. */
  refusedWithRoom: number;
  firstRefusedWithRoom?: HeaderExample | undefined;
  /** The first answer that carried each Limit value, for the evidence. */
  firstByLimit: Record<string, HeaderExample>;
}

/** Limit values a tally keeps apart; a target that sends more distinct values is wrong anyway, and the rest count under `other`. */
const MAX_LIMIT_VALUES = 16;

/** What became of a request, named as the load's totals name it (`cutOff`: in flight when the load stopped, never an answer). */
export type RequestOutcome = 'ok' | 'rateLimited' | 'errors' | 'expected' | 'cutOff';

/**
 * One request as its sender saw it and the recorder counted it: the object a
 * sender hands to {@link LoadRecorder.record} is the one the recorder's
 * subscribers are told of, its outcome set. Every field is there, undefined
 * where not known, so that the senders' objects share one shape and the
 * recorder's reads stay monomorphic.
 */
export interface RecordedRequest {
  /** Operation name for the figures (`search`, `push.book`, …). */
  readonly op: string;
  /** HTTP method, upper case (OpenTelemetry's `http.request.method`). */
  readonly method: string;
  readonly agency: string;
  readonly bucket: string;
  /** Target-clock ms. */
  readonly sentAt: number;
  readonly receivedAt: number;
  /** Latency in ms; counted in the figures only when a status arrived. */
  readonly latencyMs: number;
  /** UNKNOWN_OUTCOME when no response came. */
  readonly status: number;
  /** The Retry-After of a rate-limit refusal, seconds; undefined when absent or not read. */
  readonly retryAfterS: number | undefined;
  /** The X-RateLimit-Remaining a rate-limit refusal carried; undefined when absent or not read. */
  readonly remaining: number | undefined;
  /** The `error.code` of an error's body (`INSUFFICIENT_FUNDS`); undefined when not read. */
  readonly code: string | undefined;
  /** The sender provoked this refusal on purpose (a scenario step's `expect`, the limit pusher's reused quote): counted `expected` when neither 2xx nor a rate-limit refusal, never as an error. */
  readonly expected: boolean;
  /** What became of it, as the recorder counted it. */
  readonly outcome: RequestOutcome;
}

/**
 * Told of every request the recorder counts, as it counts it (live page,
 * metrics outputs). The object is the sender's: the fast paths fill the same
 * one in again for their next request, so read it during the call and copy
 * what you keep.
 */
export type RecorderSubscriber = (r: RecordedRequest) => void;

/** What a sender hands to the recorder: the request, its outcome left to the recorder (set on the same object for the subscribers). */
type RequestToRecord = Omit<RecordedRequest, 'outcome'>;

/** A request record a sender fills in for each request and hands to {@link LoadRecorder.record} again and again. */
type RequestRecord = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

/**
 * A record for a sender to fill in anew for each request it records and hand
 * to the recorder every time: a fresh object per request cost the recorder's
 * hot path 7 to 20% more CPU (bench/outputs-hot-path.bench.ts), one per
 * connection nothing measurable. Its outcome is the recorder's to set.
 */
export function requestRecord(f: Pick<RecordedRequest, 'op' | 'method' | 'agency' | 'bucket'>): RequestRecord {
  return {
    op: f.op,
    method: f.method,
    agency: f.agency,
    bucket: f.bucket,
    sentAt: 0,
    receivedAt: 0,
    latencyMs: 0,
    status: UNKNOWN_OUTCOME,
    retryAfterS: undefined,
    remaining: undefined,
    code: undefined,
    expected: false,
    outcome: 'cutOff',
  };
}

/** A request that got no answer (timed out, lost, or cut off at the stop), as the recorder takes it. */
export function unanswered(f: Pick<RecordedRequest, 'op' | 'method' | 'agency' | 'bucket' | 'sentAt' | 'receivedAt'>): RequestRecord {
  const r = requestRecord(f);
  r.sentAt = f.sentAt;
  r.receivedAt = f.receivedAt;
  return r;
}

/** The outcome each branch of {@link LoadRecorder.record} counts, in order: 2xx, rate-limited, expected, errors. */
const COUNTED: readonly RequestOutcome[] = ['ok', 'rateLimited', 'expected', 'errors'];

/** Index in LATENCY_OUTCOMES of a status that arrived (`429` there names the rate-limit refusals, whatever their status). */
const OUTCOME_2XX = 0;
const OUTCOME_RATE_LIMITED = 1;
const OUTCOME_OTHER = 2;

/** A second's latencies of one operation, per outcome (index as in LATENCY_OUTCOMES): the counts of each fold of that second, made when first needed. */
type OutcomeCounts = [BucketCounts[] | undefined, BucketCounts[] | undefined, BucketCounts[] | undefined];

interface OpStats {
  /**
   * Per second, the bucket counts of each outcome: each latency is recorded
   * once, into the histogram its outcome picks by index; the operation's,
   * the outcome's and the second's totals are added up at the end. Counts,
   * not packed HDR histograms: adding a packed one scans all its 23 000
   * buckets at about a microsecond each (the figures of a 6 s load took 4 s,
   * the end of an interrupted load most of its exit).
   */
  bySecond: Map<number, OutcomeCounts>;
  /**
   * The second being recorded, in fast (32-bit) histograms: a packed one
   * costs ~0.7 µs a value, most of the recorder's time per request under
   * load. Folded into `bySecond` when another second comes, and before figures.
   */
  current: { second: number; hs: [LatencyHistogram, LatencyHistogram, LatencyHistogram]; used: boolean } | undefined;
  count: number;
  ok: number;
  rateLimited: number;
  errors: number;
  expected: number;
  /** Requests still in flight when the load stopped and its grace ran out: not answers, never errors. */
  cutOff: number;
  statuses: Map<number, number>;
  /** Errors and expected refusals by `<status> <error.code>` (see {@link breakdownKey}). */
  errorsBy: Map<string, number>;
  expectedBy: Map<string, number>;
}

interface SecondStats {
  requests: number;
  ok: number;
  rateLimited: number;
  errors: number;
}

function newOp(): OpStats {
  return {
    bySecond: new Map(),
    current: undefined,
    count: 0,
    ok: 0,
    rateLimited: 0,
    errors: 0,
    expected: 0,
    cutOff: 0,
    statuses: new Map(),
    errorsBy: new Map(),
    expectedBy: new Map(),
  };
}

const CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** How an error or expected refusal is counted: `402 INSUFFICIENT_FUNDS`, `500` (no code in its body), `none` (no answer). */
function breakdownKey(status: number, code?: string): string {
  if (status === UNKNOWN_OUTCOME) return 'none';
  return code !== undefined && CODE.test(code) ? `${status} ${code}` : String(status);
}

function bump(m: Map<string, number>, key: string, by = 1): void {
  const n = (m.get(key) ?? 0) + by;
  if (n === 0) m.delete(key);
  else m.set(key, n);
}

/**
 * Records what a load run saw: HDR latency per operation and per second,
 * status counts, and each request's admission interval per agency and bucket
 * for the rate-limit verdicts.
 */
export class LoadRecorder {
  private readonly ops = new Map<string, OpStats>();
  private readonly seconds = new Map<number, SecondStats>();
  private readonly logs = new Map<string, Map<string, BucketLog>>();
  private readonly all = newOp();
  private subscribers: RecorderSubscriber[] = [];
  /** The status of a rate-limit refusal (the profile's `errors.rate_limited.status`). */
  readonly rateLimitedStatus: number;

  constructor(o: { rateLimitedStatus: number }) {
    this.rateLimitedStatus = o.rateLimitedStatus;
  }

  /** Tells `s` of every request recorded from now on (the same counts the figures hold); returns the function that stops it. */
  subscribe(s: RecorderSubscriber): () => void {
    this.subscribers = [...this.subscribers, s];
    return () => {
      this.subscribers = this.subscribers.filter((x) => x !== s);
    };
  }

  /** Tells the subscribers of `r`, its outcome set on it: the object the sender made is the one they get (no copy per request). */
  private tell(r: RequestToRecord, outcome: RequestOutcome): void {
    (r as RequestToRecord & { outcome: RequestOutcome }).outcome = outcome;
    for (const s of this.subscribers) s(r as RecordedRequest);
  }

  /**
   * Records one request and tells the subscribers of it. Instants are
   * target-clock ms; `status` is UNKNOWN_OUTCOME when no response came (its
   * latency is then not recorded). The recorder keeps no reference to `r`.
   */
  record(r: RequestToRecord): void {
    const { op, status, latencyMs, receivedAt } = r;
    this.logged(r.agency, r.bucket, r.sentAt, receivedAt, status, r.retryAfterS, r.remaining);

    let s = this.ops.get(op);
    if (!s) this.ops.set(op, (s = newOp()));
    const secondKey = Math.floor(receivedAt / 1000);
    let sec = this.seconds.get(secondKey);
    if (!sec) this.seconds.set(secondKey, (sec = { requests: 0, ok: 0, rateLimited: 0, errors: 0 }));
    const all = this.all;
    s.count += 1;
    all.count += 1;
    s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
    all.statuses.set(status, (all.statuses.get(status) ?? 0) + 1);
    sec.requests += 1;
    let outcome = OUTCOME_OTHER;
    let counted = 3;
    if (status >= 200 && status <= 299) {
      outcome = OUTCOME_2XX;
      counted = 0;
      s.ok += 1;
      this.all.ok += 1;
      sec.ok += 1;
    } else if (status === this.rateLimitedStatus) {
      outcome = OUTCOME_RATE_LIMITED;
      counted = 1;
      s.rateLimited += 1;
      this.all.rateLimited += 1;
      sec.rateLimited += 1;
    } else if (r.expected && status !== UNKNOWN_OUTCOME) {
      counted = 2;
      s.expected += 1;
      this.all.expected += 1;
      const key = breakdownKey(status, r.code);
      bump(s.expectedBy, key);
      bump(this.all.expectedBy, key);
    } else {
      s.errors += 1;
      this.all.errors += 1;
      sec.errors += 1;
      const key = breakdownKey(status, r.code);
      bump(s.errorsBy, key);
      bump(this.all.errorsBy, key);
    }
    if (this.subscribers.length > 0) this.tell(r, COUNTED[counted]!);
    if (status !== UNKNOWN_OUTCOME) {
      let cur = s.current;
      if (cur === undefined)
        s.current = cur = { second: secondKey, hs: [new LatencyHistogram('fast'), new LatencyHistogram('fast'), new LatencyHistogram('fast')], used: false };
      else if (cur.second !== secondKey) {
        fold(s);
        cur.second = secondKey;
      }
      cur.hs[outcome]!.recordMs(latencyMs);
      cur.used = true;
    }
  }

  /**
   * Records a request still in flight when the load stopped and its grace
   * ran out: the bucket verdicts count it as possibly admitted, the figures
   * count it apart (cut off at the stop), never as an answer or an error.
   */
  recordCutOff(r: RequestToRecord): void {
    this.logged(r.agency, r.bucket, r.sentAt, r.receivedAt, UNKNOWN_OUTCOME, undefined, undefined);
    let s = this.ops.get(r.op);
    if (!s) this.ops.set(r.op, (s = newOp()));
    s.cutOff += 1;
    this.all.cutOff += 1;
    if (this.subscribers.length > 0) this.tell(r, 'cutOff');
  }

  /**
   * Counts an error recorded earlier as a refusal the load itself made
   * correct (a 402 once its own bookings spent the wallet, a 409 on a quote
   * it redeemed itself): moved from errors to expected, in its operation,
   * in every operation and in the second it was answered. False when no such
   * error was recorded.
   */
  explain(op: string, receivedAt: number, status: number, code?: string): boolean {
    const s = this.ops.get(op);
    const key = breakdownKey(status, code);
    if (!s || !((s.errorsBy.get(key) ?? 0) > 0)) return false;
    for (const t of [s, this.all]) {
      t.errors -= 1;
      t.expected += 1;
      bump(t.errorsBy, key, -1);
      bump(t.expectedBy, key);
    }
    const sec = this.seconds.get(Math.floor(receivedAt / 1000));
    if (sec && sec.errors > 0) sec.errors -= 1;
    return true;
  }

  /**
   * Records one request in its bucket's log only, for the verdicts: the
   * harness's own reads after the load take slots and test Retry-After
   * promises, but are not the load's figures.
   */
  admission(r: Pick<RecordedRequest, 'agency' | 'bucket' | 'sentAt' | 'receivedAt' | 'status' | 'retryAfterS' | 'remaining'>): void {
    this.logged(r.agency, r.bucket, r.sentAt, r.receivedAt, r.status, r.retryAfterS, r.remaining);
  }

  /**
   * Appends one request to its bucket's log. Positional, and private: the
   * request's fields read once by the caller; an object handed on here cost
   * the hot path a tenth more CPU (bench/outputs-hot-path.bench.ts).
   */
  private logged(
    agency: string,
    bucket: string,
    sentAt: number,
    receivedAt: number,
    status: number,
    retryAfterS: number | undefined,
    remaining: number | undefined,
  ): void {
    const log = this.log(agency, bucket);
    log.sentAt.push(sentAt);
    log.receivedAt.push(receivedAt);
    log.status.push(status);
    log.retryAfterS.push(retryAfterS ?? Number.NaN);
    log.remaining.push(remaining ?? Number.NaN);
  }

  /**
   * Tallies the rate-limit headers of one answer (see {@link HeaderTally});
   * answers other than 2xx and rate-limit refusals are left out: a service
   * may refuse a malformed request before its limiter sees it.
   */
  headers(
    r: Pick<RecordedRequest, 'agency' | 'bucket' | 'sentAt' | 'status'>,
    h: { limit?: number | undefined; remaining?: number | undefined } | undefined,
  ): void {
    const { sentAt, status } = r;
    const admitted = status >= 200 && status <= 299;
    if (!admitted && status !== this.rateLimitedStatus) return;
    const log = this.log(r.agency, r.bucket);
    const t = (log.headers ??= { judged: 0, limits: {}, missing: 0, notBelowLimit: 0, refusedWithRoom: 0, firstByLimit: {} });
    t.judged += 1;
    const limit = h?.limit;
    const remaining = h?.remaining;
    const example = (): HeaderExample => ({ sentAt, status, limit, remaining });
    if (limit === undefined || remaining === undefined) {
      t.missing += 1;
      t.firstMissing ??= example();
      return;
    }
    const key = String(limit) in t.limits || Object.keys(t.limits).length < MAX_LIMIT_VALUES ? String(limit) : 'other';
    t.limits[key] = (t.limits[key] ?? 0) + 1;
    t.firstByLimit[key] ??= example();
    if (admitted && remaining >= limit) {
      t.notBelowLimit += 1;
      t.firstNotBelowLimit ??= example();
    }
    if (!admitted && remaining !== 0) {
      t.refusedWithRoom += 1;
      t.firstRefusedWithRoom ??= example();
    }
  }

  /**
   * Keeps the earliest answer of a bucket that told its limit and remaining
   * (see {@link BucketLog.start}); false when its headers did not tell both.
   */
  reading(
    r: Pick<RecordedRequest, 'agency' | 'bucket' | 'sentAt' | 'receivedAt' | 'status'>,
    h: { limit?: number | undefined; remaining?: number | undefined },
  ): boolean {
    const { limit, remaining } = h;
    if (limit === undefined || remaining === undefined) return false;
    const log = this.log(r.agency, r.bucket);
    if (log.start === undefined || r.receivedAt < log.start.receivedAt)
      log.start = { sentAt: r.sentAt, receivedAt: r.receivedAt, limit, remaining, admitted: r.status !== this.rateLimitedStatus };
    return true;
  }

  /** True once a bucket has a start reading: senders skip reading headers after that. */
  hasReading(agency: string, bucket: string): boolean {
    return this.logs.get(agency)?.get(bucket)?.start !== undefined;
  }

  /** The log of one agency's bucket (created empty). */
  log(agency: string, bucket: string): BucketLog {
    let byBucket = this.logs.get(agency);
    if (!byBucket) this.logs.set(agency, (byBucket = new Map()));
    let log = byBucket.get(bucket);
    if (!log)
      byBucket.set(
        bucket,
        (log = { agency, bucket, rateLimitedStatus: this.rateLimitedStatus, sentAt: [], receivedAt: [], status: [], retryAfterS: [], remaining: [] }),
      );
    return log;
  }

  /** Every bucket log recorded. */
  bucketLogs(): BucketLog[] {
    return [...this.logs.values()].flatMap((m) => [...m.values()]);
  }

  /** Total requests recorded. */
  get requests(): number {
    return this.all.count;
  }

  /** Counts so far (the load's totals; progress lines). */
  counts(): { requests: number; ok: number; rateLimited: number; errors: number; expected: number; cutOff: number } {
    return {
      requests: this.all.count,
      ok: this.all.ok,
      rateLimited: this.all.rateLimited,
      errors: this.all.errors,
      expected: this.all.expected,
      cutOff: this.all.cutOff,
    };
  }

  /** The counts so far of every operation and of all (`all`), in operation order: the figures but their latency, cheap enough for once a second. */
  operationCounts(): Record<string, OperationCounts> {
    const out: Record<string, OperationCounts> = {};
    for (const [name, s] of [...this.ops.entries()].sort(([a], [b]) => a.localeCompare(b))) out[name] = countsOf(s);
    out.all = countsOf(this.all);
    return out;
  }

  /** Requests answered in each second so far (target clock), in order: the series but their latency. */
  secondCounts(): SecondCounts[] {
    return [...this.seconds.entries()].sort(([a], [b]) => a - b).map(([second, c]) => ({ second, ...c }));
  }

  /**
   * Figures per operation (plus `all`) and per second, summed in a few wide
   * histograms from the bucket counts of every operation's seconds: the
   * cost grows with the buckets recorded, not with 23 000 per histogram.
   */
  figures(): { operations: Record<string, OperationFigures>; series: SecondFigures[]; all: LatencyHistogram } {
    for (const s of this.ops.values()) fold(s);
    const operations: Record<string, OperationFigures> = {};
    const all = new LatencyHistogram('wide');
    const allByOutcome = outcomeHistograms();
    // One operation at a time in the same sums: each is encoded and summarised before the next.
    const byOutcome = outcomeHistograms();
    const hist = new LatencyHistogram('wide');
    const perSecond = new Map<number, BucketCounts[]>();
    for (const [name, s] of [...this.ops.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      hist.reset();
      for (const h of byOutcome) h.reset();
      for (const [second, hs] of s.bySecond) {
        let ps = perSecond.get(second);
        if (!ps) perSecond.set(second, (ps = []));
        hs.forEach((folds, i) => {
          for (const c of folds ?? []) {
            byOutcome[i]!.addCounts(c);
            hist.addCounts(c);
            allByOutcome[i]!.addCounts(c);
            all.addCounts(c);
            ps.push(c);
          }
        });
      }
      operations[name] = opFigures(s, hist, byOutcome);
    }
    operations.all = opFigures(this.all, all, allByOutcome);
    const second = new LatencyHistogram('wide');
    const series = [...this.seconds.entries()]
      .sort(([a], [b]) => a - b)
      .map(([at, s]) => {
        second.reset();
        for (const c of perSecond.get(at) ?? []) second.addCounts(c);
        return secondFigures(at, second, s);
      });
    return { operations, series, all };
  }
}

/** Hands the operation's current second over to its per-second counts and empties it. */
function fold(s: OpStats): void {
  const cur = s.current;
  if (cur === undefined || !cur.used) return;
  let hs = s.bySecond.get(cur.second);
  if (!hs) s.bySecond.set(cur.second, (hs = [undefined, undefined, undefined]));
  for (let i = 0; i < cur.hs.length; i++) {
    const c = cur.hs[i]!.takeCounts();
    if (c) (hs[i] ??= []).push(c);
  }
  cur.used = false;
}

/** One empty wide histogram per outcome, in LATENCY_OUTCOMES order. */
function outcomeHistograms(): LatencyHistogram[] {
  return LATENCY_OUTCOMES.map(() => new LatencyHistogram('wide'));
}

/** The latency of each outcome, from one histogram per outcome in LATENCY_OUTCOMES order. */
export function latencyByOutcome(hists: readonly LatencyHistogram[]): Record<LatencyOutcome, OutcomeLatency> {
  const out = {} as Record<LatencyOutcome, OutcomeLatency>;
  LATENCY_OUTCOMES.forEach((o, i) => {
    const h = hists[i]!;
    out[o] = { latency: h.summary(), histogram: h.encode() };
  });
  return out;
}

/** The latency of each outcome without the encoded histograms (a live view's): one histogram per outcome in LATENCY_OUTCOMES order. */
export function latencyByOutcomeSummaries(hists: readonly LatencyHistogram[]): Record<LatencyOutcome, OutcomeLatency> {
  const out = {} as Record<LatencyOutcome, OutcomeLatency>;
  LATENCY_OUTCOMES.forEach((o, i) => {
    out[o] = { latency: hists[i]!.summary(), histogram: '' };
  });
  return out;
}

/** What an operation's figures count, without its latency. */
type OperationCounts = Omit<OperationFigures, 'latency' | 'histogram' | 'latencyByOutcome'>;

/** What a second's figures count, without its latency. */
type SecondCounts = Pick<SecondFigures, 'second' | 'requests' | 'ok' | 'rateLimited' | 'errors'>;

function countsOf(s: OpStats): OperationCounts {
  return {
    count: s.count,
    ok: s.ok,
    rateLimited: s.rateLimited,
    errors: s.errors,
    expected: s.expected,
    ...(s.cutOff > 0 ? { cutOff: s.cutOff } : {}),
    ...(s.errorsBy.size > 0 ? { errorsBy: sortedCounts(s.errorsBy) } : {}),
    ...(s.expectedBy.size > 0 ? { expectedBy: sortedCounts(s.expectedBy) } : {}),
    statuses: Object.fromEntries([...s.statuses.entries()].sort(([a], [b]) => a - b).map(([k, v]) => [k === UNKNOWN_OUTCOME ? 'none' : String(k), v])),
  };
}

function opFigures(s: OpStats, hist: LatencyHistogram, byOutcome: readonly LatencyHistogram[]): OperationFigures {
  return { ...countsOf(s), latency: hist.summary(), histogram: hist.encode(), latencyByOutcome: latencyByOutcome(byOutcome) };
}

/** Counts by key, most first (ties by key). */
function sortedCounts(m: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...m.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}

/** Figures of one second from its histogram and counts. */
export function secondFigures(second: number, hist: LatencyHistogram, c: { requests: number; ok: number; rateLimited: number; errors: number }): SecondFigures {
  // Three percentile queries, not a whole summary: a query walks every bucket, and a long run has a histogram per second.
  return {
    second,
    requests: c.requests,
    ok: c.ok,
    rateLimited: c.rateLimited,
    errors: c.errors,
    histogram: hist.encode(),
    p50: hist.percentileMs(50),
    p99: hist.percentileMs(99),
    max: hist.percentileMs(100),
  };
}
