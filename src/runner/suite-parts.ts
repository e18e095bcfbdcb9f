import type { SuitePartOptions, SuiteParts } from './suite-part-types.js';

export type { PartPlanInput, SuitePart, SuitePartContext, SuiteParts, SuitePartOptions } from './suite-part-types.js';

/** The scenario and property runners of the harness. */
export async function loadSuiteParts(opts: SuitePartOptions = {}): Promise<SuiteParts> {
  // Loaded on demand: a run that selects neither never pays for fast-check or the scenario files.
  const [{ runScenarios, loadScenarios, scenarioWaitsMs }, { runProperties, propertiesRealTimeMs }] = await Promise.all([import('../scenario/index.js'), import('../../properties/index.js')]);
  const scenarioNames = (opts.scenarioNames ?? []).map((n) => n.replace(/^scenario:/, ''));
  return {
    async realTimeMs(part, input) {
      if (part === 'properties') {
        return propertiesRealTimeMs({ only: opts.propertyNames, windowMs: input.profile.limits.window_s * 1000, writeLimit: input.writeLimit, requestMs: input.roundTripMs });
      }
      const all = await loadScenarios({}, input.profile).catch(() => []);
      const chosen = scenarioNames.length > 0 ? all.filter((s) => scenarioNames.includes(s.name)) : all;
      return scenarioWaitsMs(chosen, input.profile, input.quoteLifetimeS);
    },
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
