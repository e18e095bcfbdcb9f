import type { SuitePartOptions, SuiteParts } from './suite-part-types.js';

export type { SuitePart, SuitePartContext, SuiteParts, SuitePartOptions } from './suite-part-types.js';

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
        ...(opts.replayContext?.length ? { replayContext: opts.replayContext } : {}),
      }),
  };
}
