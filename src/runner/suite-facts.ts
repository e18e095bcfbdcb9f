/*
 * Facts of a suite run: what the runner reads of the target before it plans.
 */
import type { TargetApi } from '../api/types.js';
import type { Check, LearnedTarget } from '../checks/types.js';
import { withAbortSignal } from '../client/abort-scope.js';
import type { Exchange } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Receiver } from '../receiver/index.js';
import { readAgencyFacts, roomOf, type AgencyFacts, type FactsWanted } from './agency-facts.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { quoteLifetimeNote, roundTripMs } from './run-notes.js';
import type { TargetFacts } from './target-facts.js';

/** Reads sent to measure the round trip before a real-time run. */
const ROUND_TRIP_PROBES = 3;

/** Longest a round-trip probe may take, ms: a slower target is planned with this much, and the run does not wait on it. */
const ROUND_TRIP_PROBE_MAX_MS = 2000;

/** What the facts are read with. */
interface FactsInput {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  checks: readonly Check[];
  clock: ClockDriver;
  receiver?: Receiver | undefined;
  reset?: (() => Promise<void>) | undefined;
  api: (i?: number) => TargetApi;
  /** The exchanges made so far (the round trip is measured on them). */
  exchanges: () => readonly Exchange[];
  /** Requests this run sent to a bucket (`<agency index>:read`) so far; without it, no other client's use is looked for. */
  ownRequests?: ((bucket: string) => number) | undefined;
  /** Told of a wait before the run plans (`ms`, why). */
  onWait?: ((ms: number, reason: string) => void) | undefined;
}

/** Reads of this harness a bucket may count that the run does not: the probe of the target before the run (one signed read of an account). */
const UNCOUNTED_READS = 1;

/** An agency whose read bucket counted requests beyond the run's own when its facts were read. */
interface ForeignUse {
  agency: string;
  requests: number;
  limit: number;
}

/**
 * The agencies whose read bucket, by the target's answers to the facts' reads,
 * counted more requests than the run has sent it (`own`) and the harness's
 * probe before the run: another client (or
 * a run just before this one) used it within the window. A real-time plan
 * counts only its own requests in a bucket, so a check would meet a bucket it
 * did not fill and be refused (429 where it expects an answer).
 */
export function foreignUse(agencies: readonly AgencyFacts[], own: (bucket: string) => number): ForeignUse[] {
  return agencies.flatMap((f) => {
    if (!f.readRoom) return [];
    const requests = f.readRoom.limit - f.readRoom.remaining - own(`${f.index}:read`);
    return requests > UNCOUNTED_READS ? [{ agency: f.id, requests, limit: f.readRoom.limit }] : [];
  });
}

/** What the runner knows of the target before it plans. */
export interface SuiteFacts {
  /** A driven clock: one check at a time, the target reset before each. */
  isolated: boolean;
  /** The target's clock cannot be moved: the checks share it under leases. */
  realTime: boolean;
  agencies: AgencyFacts[];
  target: TargetFacts;
  learned: LearnedTarget;
  /** The run's clock when `learned.targetAt` was read (the plan moves it to the run's start); absent: when the plan starts. */
  learnedAt?: number | undefined;
  /** Round trip of one request, ms. */
  roundTripMs: number;
  /** A note on what the target answered unlike its profile, if any. */
  note?: string | undefined;
}

/** Reads the target: each agency's facts (only the first's against an isolated target, as every check runs there), then the round trip. */
export async function readTarget(input: FactsInput): Promise<SuiteFacts> {
  const isolated = input.clock.kind === 'mock';
  let agencies = await gatherFacts(input, isolated);
  let busyNote: string | undefined;
  const busy = input.clock.kind === 'real' && input.ownRequests ? foreignUse(agencies, input.ownRequests) : [];
  if (busy.length > 0) {
    // Those requests leave the window within one: the run waits that long, then reads the target afresh.
    const windowMs = input.profile.limits.window_s * 1000;
    const who = busy.map((b) => `${b.agency}'s read bucket counted ${b.requests} of ${b.limit} beyond this run's own`).join('; ');
    busyNote = `${who}: another client (or a run just before this one) was using the target, so the run waited one window (${input.profile.limits.window_s} s) before it read the target again and planned. A write bucket in use cannot be seen without writing.`;
    input.onWait?.(windowMs, `${who}; waiting one window for another client's requests to leave it`);
    const waited = await input.clock.wait(windowMs).then(
      () => true,
      () => false,
    );
    if (waited) agencies = await gatherFacts(input, isolated);
  }
  const target = targetFacts(input, agencies[0]);
  const offset = agencies.find((f) => f.clockOffsetMs !== undefined)?.clockOffsetMs;
  const learnedAt = input.clock.now();
  const learned: LearnedTarget = {
    quoteLifetimeS: agencies.find((f) => f.quoteLifetimeS !== undefined)?.quoteLifetimeS,
    ...(offset !== undefined ? { targetAt: learnedAt + offset } : {}),
  };
  return {
    isolated,
    realTime: !isolated && target.clock === 'real',
    agencies,
    target,
    learned,
    learnedAt,
    roundTripMs: roundTripMs(input.exchanges()),
    note: [busyNote, quoteLifetimeNote(input.profile, learned)].filter((n) => n !== undefined).join(' ') || undefined,
  };
}

async function gatherFacts(input: FactsInput, isolated: boolean): Promise<AgencyFacts[]> {
  const { profile, agencies, api } = input;
  const needs = new Set(input.checks.flatMap((c) => c.needs));
  const wanted: FactsWanted = { products: needs.has('closed-product') || needs.has('open-product'), wallet: needs.has('open-product') };
  if (wanted.products && input.reset && isolated) await input.reset();
  const list = isolated ? agencies.slice(0, 1) : agencies;
  if (list.length === 0) return [];
  const facts = await Promise.all(list.map((agency, i) => readAgencyFacts(api(i), agency, i, profile, wanted, () => input.clock.now())));
  if (!isolated) {
    // A few reads on open connections, one at a time: the round trip the estimate counts with.
    for (let i = 0; i < ROUND_TRIP_PROBES; i++) {
      const answered = await withAbortSignal(AbortSignal.timeout(ROUND_TRIP_PROBE_MAX_MS), () => api(0).account({ label: 'runner: round trip' })).then(
        (res) => {
          // The first agency's read bucket as its last answer counts it: the room its facts saw, or none where no facts were read.
          if (facts[0]) facts[0].readRoom = roomOf(res, profile, facts[0].limits?.read) ?? facts[0].readRoom;
          return true;
        },
        () => false,
      );
      if (!answered) break;
    }
  }
  return facts;
}

/** What the runner knows of the target, for the needs of the checks (the first agency's products). */
function targetFacts(input: FactsInput, first: AgencyFacts | undefined): TargetFacts {
  const { profile, agencies } = input;
  const primary = agencies[0];
  let hotel: TargetFacts['hotel'] = true;
  if (!profile.hotel_base_url) hotel = 'profile hotel_base_url is null';
  else if (!primary?.hotelApiKey) hotel = `no hotel API key for agency ${primary?.id ?? '?'} (set agencies[0].hotel_api_key_env)`;
  return {
    clock: input.clock.kind,
    agencies: agencies.length,
    hotel,
    failureTrigger: profile.failure_trigger !== null,
    receiver: input.receiver !== undefined,
    products: first?.products ?? { error: 'no agency' },
    primaryAgency: primary?.id ?? '?',
  };
}
