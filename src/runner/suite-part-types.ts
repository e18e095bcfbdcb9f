/*
 * The contract between the runner and the suite's parts (scenarios, properties), apart
 * from `loadSuiteParts`, so the parts can name it without importing back the loader that imports them.
 */
import type { CheckContext } from '../checks/types.js';
import type { Profile } from '../profile/types.js';
import type { CaseResult } from '../results/model.js';
import type { AgencyView } from '../scenario/scenario-plan.js';

/**
 * What scenarios and properties get from the runner: the same context as a
 * check, plus `reset` (isolates their cases against a mock; undefined against
 * a real target) and `onCase` to report each case as it finishes.
 */
export interface SuitePartContext extends CheckContext {
  /** Puts the target back to its fixture (mock only); call it between cases that must not see each other. */
  reset: (() => Promise<void>) | undefined;
  /** Reports one finished case at once (progress); the returned list is what the result holds. */
  onCase(result: CaseResult): void;
  /**
   * Indices of `agencies` the part may send to (the runner's lease; it shrinks
   * as the runner gives agencies back); absent: every agency.
   */
  usableAgencies?: ReadonlySet<number> | undefined;
}

/** A part of the suite beyond checks: returns one case per scenario or property. */
export type SuitePart = (ctx: SuitePartContext) => Promise<CaseResult[]>;

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
