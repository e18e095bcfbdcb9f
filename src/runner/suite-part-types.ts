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
  /** The properties only: those that run beside a scenario's wait (true), or the others (false); absent, all. */
  besideWait?: boolean | undefined;
  /** Longest single wait in real time, ms (`--max-wait`): a case that waits longer is skipped, and planned as taking no time. @defaultValue 120 000 */
  maxWaitMs?: number | undefined;
}

/** One case of a part, as the plan sees it (see `SuiteParts.casesOf`). */
export interface PartCase {
  name: string;
  read: number;
  write: number;
  waits: boolean;
}

/** The suite's parts beyond checks: `runScenarios` of `src/scenario/` and `runProperties` of `properties/`. */
export interface SuiteParts {
  scenarios?: SuitePart;
  properties?: SuitePart;
  /** Target time a part waits or is paced by the rate limit against a target whose clock cannot be moved, ms (to plan the run). */
  realTimeMs?: (part: 'scenarios' | 'properties', input: PartPlanInput) => Promise<number>;
  /**
   * Each case of a part in the order `agenciesOf` lists them: its name, the
   * requests it needs free in its agency's buckets when it starts, and
   * whether it waits (a scenario's `wait` or `rest`).
   */
  casesOf?: (part: 'scenarios' | 'properties', input: PartPlanInput) => Promise<PartCase[]>;
  /** How the scenarios' waits spend the run (`beside`: the properties may run beside a long one), ms; see `scenarioWaitPlan`. */
  scenarioWaits?: (input: PartPlanInput, beside: boolean) => Promise<{ beside: number; away: number }>;
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
  /** Runs of property:openapi-inputs. */
  fuzzRuns?: number;
  /** Arguments naming the run's target, for the replay commands properties print (see `replayContext`). */
  replayContext?: readonly string[];
}
