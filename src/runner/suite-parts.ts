import type { PartPlanInput, SuitePartOptions, SuiteParts } from './suite-part-types.js';

/** The scenario and property runners of the harness. */
export async function loadSuiteParts(opts: SuitePartOptions = {}): Promise<SuiteParts> {
  // Loaded on demand: a run that selects neither never pays for fast-check or the scenario files.
  const [
    { runScenarios, loadScenarios, scenarioWaitsMs, scenarioWaitPlan, scenarioRequests, scenarioWaits, runOrder, chooseAgency, scenarioOverMaxWait },
    { runProperties, propertiesRealTimeMs, propertiesAgencies, propertiesRequests, propertiesWriteLimits },
  ] = await Promise.all([import('../scenario/index.js'), import('../../properties/index.js')]);
  const scenarioNames = (opts.scenarioNames ?? []).map((n) => n.replace(/^scenario:/, ''));
  // Read and validated once per profile: the plan asks for the scenarios' waits and for their agencies.
  let loaded: { profile: PartPlanInput['profile']; scenarios: ReturnType<typeof loadScenarios> } | undefined;
  const chosenScenarios = async (profile: PartPlanInput['profile']) => {
    if (loaded?.profile !== profile) loaded = { profile, scenarios: loadScenarios({}, profile).catch(() => []) };
    const all = await loaded.scenarios;
    return scenarioNames.length > 0 ? all.filter((s) => scenarioNames.includes(s.name)) : all;
  };
  // The plan is of a real-time run: a scenario with a wait over --max-wait is skipped, sends nothing and waits nothing.
  const skipped = (s: Awaited<ReturnType<typeof chosenScenarios>>[number], input: PartPlanInput): boolean =>
    scenarioOverMaxWait(s, input.profile, { kind: 'real' }, input.maxWaitMs) !== undefined;
  const running = async (input: PartPlanInput) => (await chosenScenarios(input.profile)).filter((s) => !skipped(s, input));
  let plannedWriteLimits: ReadonlyMap<number, number | undefined> | undefined;
  return {
    async realTimeMs(part, input) {
      if (part === 'properties') {
        return propertiesRealTimeMs({
          only: opts.propertyNames,
          besideWait: input.besideWait,
          windowMs: input.profile.limits.window_s * 1000,
          writeLimit: input.writeLimit,
          requestMs: input.roundTripMs,
          quoteLifetimeS: input.quoteLifetimeS ?? input.profile.quotes.lifetime_s,
          agencies: input.profile.agencies.map((a, index) => ({ index, writeLimit: a.limits?.write })),
          maxWaitMs: input.maxWaitMs,
        });
      }
      return scenarioWaitsMs(await running(input), input.profile, input.quoteLifetimeS);
    },
    async casesOf(part, input) {
      if (part === 'properties')
        return propertiesRequests({
          only: opts.propertyNames,
          writeLimit: input.writeLimit,
          windowMs: input.profile.limits.window_s * 1000,
          quoteLifetimeS: input.quoteLifetimeS ?? input.profile.quotes.lifetime_s,
          maxWaitMs: input.maxWaitMs,
        }).map((c) => ({ ...c, waits: true }));
      return runOrder(await chosenScenarios(input.profile)).map((s) =>
        skipped(s, input) ? { name: s.name, read: 0, write: 0, waits: false } : { name: s.name, ...scenarioRequests([s]), waits: scenarioWaits(s) },
      );
    },
    async scenarioWaits(input, beside) {
      return scenarioWaitPlan(runOrder(await running(input)), input.profile, input.quoteLifetimeS, beside);
    },
    async agenciesOf(part, input, agencies) {
      if (part === 'properties') {
        // The run shares the agencies out by the limits the plan saw.
        plannedWriteLimits = propertiesWriteLimits({ profile: input.profile, agencies });
        return propertiesAgencies({ only: opts.propertyNames, profile: input.profile, agencies });
      }
      const out: Array<number | null> = [];
      for (const s of runOrder(await chosenScenarios(input.profile))) {
        // Skipped for a wait over --max-wait, it sends nothing.
        if (skipped(s, input)) {
          out.push(null);
          continue;
        }
        const chosen = chooseAgency(s, agencies, agencies);
        if (chosen === 'unknown') return undefined;
        // A scenario that skips for want of an agency reads only the agencies still leased to the parts.
        out.push('skip' in chosen ? null : chosen.index);
      }
      return out;
    },
    scenarios: (ctx) => runScenarios(ctx, opts.scenarioNames?.length ? { names: opts.scenarioNames } : {}),
    properties: (ctx) =>
      runProperties(ctx, {
        ...(opts.propertyNames?.length ? { only: opts.propertyNames } : {}),
        ...(opts.propertyPath ? { path: opts.propertyPath } : {}),
        ...(opts.propertyReplayPath ? { replayPath: opts.propertyReplayPath } : {}),
        ...(opts.fuzzRuns !== undefined ? { fuzzRuns: opts.fuzzRuns } : {}),
        ...(opts.replayContext?.length ? { replayContext: opts.replayContext } : {}),
        ...(plannedWriteLimits ? { writeLimits: plannedWriteLimits } : {}),
      }),
  };
}
