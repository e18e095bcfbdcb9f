import type { CheckContext } from '../checks/types.js';
import type { CaseResult } from '../report/model.js';

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
}

/** A part of the suite beyond checks: returns one case per scenario or property. */
export type SuitePart = (ctx: SuitePartContext) => Promise<CaseResult[]>;

/** The suite's parts beyond checks: `runScenarios` of `src/scenario/` and `runProperties` of `properties/`. */
export interface SuiteParts {
  scenarios?: SuitePart;
  properties?: SuitePart;
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
}

/** The scenario and property runners of the harness. */
export async function loadSuiteParts(opts: SuitePartOptions = {}): Promise<SuiteParts> {
  // Loaded on demand: a run that selects neither never pays for fast-check or the scenario files.
  const [{ runScenarios }, { runProperties }] = await Promise.all([import('../scenario/index.js'), import('../../properties/index.js')]);
  return {
    scenarios: (ctx) => runScenarios(ctx, opts.scenarioNames?.length ? { names: opts.scenarioNames } : {}),
    properties: (ctx) =>
      runProperties(ctx, {
        ...(opts.propertyNames?.length ? { only: opts.propertyNames } : {}),
        ...(opts.propertyPath ? { path: opts.propertyPath } : {}),
        ...(opts.propertyReplayPath ? { replayPath: opts.propertyReplayPath } : {}),
      }),
  };
}
