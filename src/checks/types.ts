import type { HotelApi, TargetApi } from '../api/types.js';
import type { Exchange, ExchangeRecorder } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Area, RateLimitPoint, Verdict, WebhookPoint } from '../results/model.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import type { Receiver } from '../receiver/index.js';
import type { RunCache } from './run-cache.js';

/** What a check needs from the target; the runner skips it, naming the reason, when a need is not met. */
export type Need = 'clock-control' | 'second-agency' | 'receiver' | 'hotel' | 'failure-trigger' | 'closed-product' | 'open-product';

/**
 * What a check may share with nobody while it runs, per agency: the service's
 * read and write rate-limit buckets, the prepaid wallet, the service webhook
 * endpoint, and the agency's hotel API account (its bookings and webhook).
 */
export type AgencyResource = 'read' | 'write' | 'wallet' | 'webhook' | 'hotel';

/** `<role>:<resource>`: the role is the agency index as the check sees it (`ctx.api(role)`). */
export type ResourceRef = `${number}:${AgencyResource}`;

/** `<role>:read` or `<role>:write`: one of the service's rate-limit buckets of the agency playing the role. */
export type BucketRef = `${number}:${'read' | 'write'}`;

/** A check's wait on target time, and what it holds meanwhile (to plan real-time runs). */
export interface CheckWait {
  /** Target time it waits, roughly, ms; `startMs`: when it starts, ms after the run's start (a wait anchored to the target's clock depends on it). */
  ms: (profile: Profile, learned?: LearnedTarget, startMs?: number) => number;
  /**
   * What it still holds through its wait, after calling `ctx.narrowLease` with
   * it: the rest of its lease is free meanwhile. Absent: it holds its whole lease.
   */
  holds?: ResourceRef[];
  /** After its wait it takes its whole lease back (`ctx.widenLease`) for its last requests. */
  resumes?: boolean;
  /** Taking its lease back later than its wait ends changes nothing it judges (an expired quote stays expired): nothing is kept free for it meanwhile. */
  resumesLate?: boolean;
  /** Checks with the same key share one wait (one run of a webhook scenario): only the first pays it. */
  sharedKey?: string;
  /**
   * Its longest single wait, ms, where `ms` is not that (several waits, or
   * margins beyond what it waits for): the run's `--max-wait` is held against
   * it. In real time, a check whose longest wait is over the bound is a SKIP
   * naming the bound, never started, and the plan counts no time for it.
   * @defaultValue `ms` at the run's start
   */
  longestMs?: (profile: Profile, learned?: LearnedTarget) => number;
  /** What its longest wait is for, in a few words (`the quote to expire`), for that SKIP's message. */
  why?: string;
}

/**
 * What a check uses of the target while it runs, for the scheduler: every
 * field is optional, with the safe default named.
 */
export interface CheckUses {
  /**
   * Agency resources it holds alone for its whole run (`0:read`, `0:wallet`, `1:write`…).
   * @defaultValue read, write and wallet of agency 0 (and of 1 with a second agency)
   */
  touches?: ResourceRef[];
  /**
   * Rate-limit buckets it fills on purpose (held too, whether or not in `touches`):
   * the runner never runs two checks with a common bucket at once, and resets or waits a window between them.
   */
  fills?: BucketRef[];
  /**
   * Most requests it sends to one bucket of an agency, besides filling buckets,
   * or to its read and its write bucket apart.
   * @defaultValue 10
   */
  requests?: number | { read: number; write: number };
  /**
   * Bookings a correct service charges it for; 0 when every booking it makes
   * is refused, so that any agency's wallet serves it.
   * @defaultValue many: it runs on an agency whose wallet pays twenty of the dearest offer
   */
  charges?: number;
  /** Its wait on target time. @defaultValue none */
  wait?: CheckWait;
  /**
   * Which agency plays its role 0: always the profile's first (it judges a run
   * shared with other checks by that agency's secrets), or every agency at
   * once (it looks for one that fits).
   * @defaultValue any agency that fits its needs
   */
  role0?: 'first-agency' | 'every-agency';
}

/** What the run learned of the target from its answers (as opposed to what the profile says). */
export interface LearnedTarget {
  /** Quote lifetime, s: `quote_expires_at` minus the time of the answer, as the service gave it at the start of the run. */
  quoteLifetimeS?: number | undefined;
  /** The target's time when the run starts (the plan's instant 0), ms since epoch, from the `Date` of an answer at the start of the run (to the second); absent when none said. */
  targetAt?: number | undefined;
}

/** A check's verdict with its evidence: a failed check is data, never an exception. */
export interface CheckOutcome {
  verdict: Verdict;
  message: string;
  /** Exchange ids that show the verdict. */
  evidence?: string[];
  details?: Record<string, unknown>;
}

/** Everything a check may use (built per check by `checkContext`). */
export interface CheckContext {
  /** Id of the running check (or the suite part: `scenarios`, `properties`). */
  checkId: string;
  /** `text` as an exchange label of the running check: `ctx.label('replay')` is `ID-01 replay`. */
  label(text: string): string;
  /** State shared by the checks of this run, e.g. a webhook scenario several checks judge. */
  runCache: RunCache;
  profile: Profile;
  agencies: ResolvedAgency[];
  /** The service as agency `index` (0 = primary) sees it. Every exchange is recorded. */
  api(index?: number): TargetApi;
  /** The hotel API as agency `index` sees it; undefined when the profile has none. */
  hotel(index?: number): HotelApi | undefined;
  clock: ClockDriver;
  /**
   * In real time, gives back every resource of the check's lease but `keep`
   * (refs as the check sees them, e.g. `0:webhook`): call it before a long wait
   * that touches nothing else, so that other checks may use the rest meanwhile.
   * Absent, or a no-op, where the check runs alone. `backAt` (this clock):
   * when it means to take the lease back (`widenLease`), if it does; units
   * that would still hold the lease then are kept off it meanwhile.
   */
  narrowLease?: ((keep: readonly ResourceRef[], backAt?: number) => void) | undefined;
  /** After `narrowLease`, takes the whole lease back, once the runner can grant it again (at once where the check runs alone). */
  widenLease?: (() => Promise<void>) | undefined;
  /**
   * Target instant of the last request this run sent into agency `agency`'s
   * `kind` bucket (since the target was last reset), or undefined when none:
   * the bucket is empty one window after it. Absent where the runner does not
   * count (then assume a bucket may be full).
   */
  lastRequestAt?: ((kind: 'read' | 'write', agency?: number) => number | undefined) | undefined;
  /** The harness's webhook receiver, when one is reachable by the target. */
  receiver: Receiver | undefined;
  recorder: ExchangeRecorder;
  /** Every exchange recorded so far in this run (for checks that judge the whole run, e.g. the error envelope). */
  exchanges(): readonly Exchange[];
  timeline: { rateLimit(point: RateLimitPoint): void; webhook(point: WebhookPoint): void };
  /** Progress and diagnostics. */
  log(message: string): void;
  /**
   * Aborts when the check's time is up. Requests sent through `api()` and
   * `hotel()` within the check are aborted with it already; a check that
   * waits on anything else may listen to it.
   */
  signal?: AbortSignal | undefined;
  /** What the run learned of the target (absent in contexts built outside a run). */
  learned?: LearnedTarget | undefined;
  /**
   * Longest single wait in real time, ms (`run --max-wait`): against a clock
   * that cannot be moved, a longer wait is not made and what would make it is
   * a SKIP (`overMaxWait`); with clock control it does not apply.
   * @defaultValue 120 000 (`DEFAULT_MAX_WAIT_S`)
   */
  maxWaitMs?: number | undefined;
  /** Seed of this run (for anything random). */
  seed: number;
  /** A fresh unique token for idempotency keys, client references, webhook paths: never repeats across runs. */
  unique(prefix: string): string;
}

/** One compliance check: its object is its documentation. */
export interface Check {
  /** Stable id, e.g. `RL-03`; unique across the registry. */
  id: string;
  title: string;
  area: Area;
  /** The SPEC.md clause it proves, e.g. `SPEC §8.3: the counting window is a rolling one minute`. */
  clause: string;
  needs: Need[];
  /**
   * Checks naming one episode run under one lease, one after the other, with no
   * reset or cooling between them; each member's `uses` is the episode's. The
   * rate-limit episode shares one fill of its buckets: the first to run makes the
   * requests and every member judges the same observations (kept in the run
   * cache). The isolation episode's members each make their own requests, and
   * judge only what moved while they ran.
   */
  episode?: string;
  /** What it holds, fills, sends and waits, for the scheduler (real-time runs). @defaultValue see {@link CheckUses} */
  uses?: CheckUses;
  /**
   * When it runs. `baseline`: first and alone; it proves the harness's access
   * (a correctly signed request is accepted), so when it fails or errs every
   * other verdict would be about that access: the rest is not run and the run
   * is INCONCLUSIVE. `last`: after every other check, scenario and property
   * (it judges what the whole run saw). Absent: among the rest.
   */
  phase?: 'baseline' | 'last';
  /** It reads the profile's OpenAPI document: a run that selects it reads the document before it starts, so that one that cannot be read is said at once, not as this check's ERROR at the end. */
  readsOpenApi?: boolean;
  run(ctx: CheckContext): Promise<CheckOutcome>;
}
