/*
 * What a part of the suite beyond checks (scenarios, properties) is given and returns: the contract
 * between the runner and the parts, beneath both, so a part never imports the runner that runs it.
 */
import type { CaseResult } from '../results/model.js';
import type { CheckContext } from './types.js';

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
  /**
   * In real time, a suite's scenarios and properties overlap: `waitBeside`
   * (given to the scenarios) waits a scenario's long wait out while the
   * properties that leave the buckets usable run, and resolves once both are
   * done; `besideWait` (given to the properties) runs only those (true) or
   * only the others (false). Absent: one part after the other.
   */
  waitBeside?: ((ms: number) => Promise<void>) | undefined;
  besideWait?: boolean | undefined;
  /** The scenarios to run, by name (in real time some run apart, as units of their own); absent: all. */
  scenarioFilter?: ((name: string) => boolean) | undefined;
}

/** A part of the suite beyond checks: returns one case per scenario or property. */
export type SuitePart = (ctx: SuitePartContext) => Promise<CaseResult[]>;
