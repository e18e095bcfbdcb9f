/**
 * The vocabulary of run results: verdicts, areas, cases and timeline points.
 * The result of each kind of run is in run-result.ts.
 */

/**
 * Verdict vocabulary shared by checks, scenarios, properties, gates and
 * certificates. KNOWN is never a check's own verdict: it is a FAIL the run's
 * known-issues list excuses (see `CaseResult.known`), and fails nothing.
 */
export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'SKIP' | 'ERROR' | 'KNOWN';

/** The known-issues entry a case was matched with, as the reports show it. */
export interface KnownMark {
  /** Why the failure is known, as the list says (a ticket, a vendor's promise). */
  reason: string;
  /** Last day (UTC, `YYYY-MM-DD`) the entry excuses the failure. */
  until: string;
  /**
   * `excused`: the case failed and is KNOWN; `expired`: it failed and fails
   * the run, the entry being past its date; `stale`: it no longer fails, in
   * this run nor in the earlier runs of its reports folder (a WARN);
   * `intermittent`: it passed, but failed in some of those earlier runs (a PASS).
   */
  state: 'excused' | 'expired' | 'stale' | 'intermittent';
  /** For `intermittent`: the earlier runs of the reports folder that ran the case, and those it failed in. */
  history?: { folder: string; ran: number; failed: number } | undefined;
  /** The case's verdict before the list was applied. */
  was: Verdict;
}

/**
 * The verdict of a whole run. INCONCLUSIVE: nothing failed, yet the run proves
 * nothing (no case passed, or the baseline signed request was refused, so
 * every other verdict would be about the harness's access, not the target).
 */
export type RunVerdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'INTERRUPTED';

/**
 * Every area a case belongs to, in the order of the specification: runs and
 * reports list them this way. The one list: a new area is one entry here and
 * one line in `src/checks/areas.ts`.
 */
export const AREAS = Object.freeze([
  'auth',
  'contract',
  'errors',
  'ratelimit',
  'idempotency',
  'quotes',
  'wallet',
  'webhooks',
  'hotel',
  'isolation',
  'schema',
  'scenarios',
  'properties',
  'load',
] as const);

/** Areas of the specification a check belongs to. */
export type Area = (typeof AREAS)[number];

/** One verdict of a check, scenario, property or gate. */
export interface CaseResult {
  /** Stable id, e.g. `RL-03`, `scenario:happy-flights`, `property:idempotency-model`. */
  id: string;
  kind: 'check' | 'scenario' | 'property' | 'gate';
  title: string;
  area: Area;
  /** The SPEC.md clause it proves, e.g. `SPEC §8.3 rolling one-minute window`. */
  clause: string;
  verdict: Verdict;
  /** One sentence saying why; for a FAIL, what was broken. */
  message: string;
  /** Ids of the exchanges (in `RunResult.exchanges`) that show the verdict. */
  evidence: string[];
  /** Set when the run's known-issues list names this case. */
  known?: KnownMark | undefined;
  /** Extra structured facts (counts, expected vs actual, counterexamples, replay commands). */
  details?: Record<string, unknown>;
  startedAt: number;
  durationMs: number;
  /** Wall-clock ms since epoch the case started at, when its runner noted it: `startedAt` is the target's clock, which a mock moves by minutes, so reports measure wall spans (a JUnit suite's time) by this. */
  wallStartedAt?: number | undefined;
  /** Requests the case sent, the admin API's included (each attempt of a retried one counts), when its runner counted them. */
  requests?: number | undefined;
  /** Of those, how many went one after another (one sent while another was in flight adds none): against a distant target the case's wall time is about this many round-trip times. */
  roundTrips?: number | undefined;
}

/** One admitted or refused request, for the rate-limit timeline. */
export interface RateLimitPoint {
  /** Target clock ms since epoch. */
  at: number;
  agency: string;
  bucket: string;
  status: number;
  limit?: number | undefined;
  remaining?: number | undefined;
  retryAfterS?: number | undefined;
}

/** One webhook attempt as the receiver saw it, for the webhook timeline. */
export interface WebhookPoint {
  at: number;
  eventId: string;
  attempt: number;
  status: number;
  scheme: 'service' | 'hotel';
  check?: string;
}
