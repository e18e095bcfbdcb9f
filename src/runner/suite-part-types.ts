/*
 * How the runner plans and loads the suite's parts (scenarios, properties), apart from `loadSuiteParts`.
 * What a part itself is given and returns (`SuitePart`) lies beneath both, in `src/checks/suite-part.ts`.
 */
import type { SuitePart } from '../checks/suite-part.js';
import type { Profile } from '../profile/index.js';
import type { AgencyView } from '../scenario/index.js';

/** What a part's real-time duration is estimated from. */
export interface PartPlanInput {
  profile: Readonly<Profile>;
  /** The quote lifetime the service answered, s, when known. */
  quoteLifetimeS?: number | undefined;
  /** The write limit of the agency the parts book with, when known. */
  writeLimit?: number | undefined;
  /** Round trip of one request, ms. */
  roundTripMs: number;
}

/** The suite's parts beyond checks: `runScenarios` of `src/scenario/` and `runProperties` of `properties/`. */
export interface SuiteParts {
  scenarios?: SuitePart;
  properties?: SuitePart;
  /** Target time a part waits or is paced by the rate limit against a target whose clock cannot be moved, ms (to plan the run). */
  realTimeMs?: (part: 'scenarios' | 'properties', input: PartPlanInput) => Promise<number>;
  /** Requests each case of a part sends to its agency's buckets at least, in the order `agenciesOf` lists them (the properties measure their own: none). */
  requestsOf?: (part: 'scenarios' | 'properties', input: PartPlanInput) => Promise<Array<{ read: number; write: number }>>;
  /** Of that time, how much a part spends away, holding nothing of its lease (the scenarios' waits), ms. */
  awayMs?: (part: 'scenarios' | 'properties', input: PartPlanInput) => Promise<number>;
  /**
   * The agency index each case of a part runs as, in the order the cases
   * run (null: it sends nothing); undefined when it cannot be told from
   * `agencies` (to lease the part only the agencies it uses).
   */
  agenciesOf?: (part: 'scenarios' | 'properties', input: PartPlanInput, agencies: readonly AgencyView[]) => Promise<Array<number | null> | undefined>;
}

/** Which scenarios and properties run, and a property counterexample to replay. */
export interface SuitePartOptions {
  /** Scenario names; empty or absent runs every scenario. */
  scenarioNames?: string[];
  /** Property names; empty or absent runs every property. */
  propertyNames?: string[];
  /** fast-check path of a counterexample to replay (with the run's seed). */
  propertyPath?: string;
  /** fast-check replay path of a shrunk command list, with `propertyPath`. */
  propertyReplayPath?: string;
  /** Arguments naming the run's target, for the replay commands properties print (see `replayContext`). */
  replayContext?: readonly string[];
}
