/*
 * Facts of a suite run: what the runner reads of the target before it plans.
 */
import type { TargetApi } from '../api/types.js';
import type { Check, LearnedTarget } from '../checks/types.js';
import { withAbortSignal } from '../client/abort-scope.js';
import type { Exchange } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Receiver } from '../receiver/index.js';
import { readAgencyFacts, type AgencyFacts, type FactsWanted } from './agency-facts.js';
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
  const agencies = await gatherFacts(input, isolated);
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
    note: quoteLifetimeNote(input.profile, learned),
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
        () => true,
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
