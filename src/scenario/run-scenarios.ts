import type { CheckContext } from '../checks/types.js';
import { HarnessError } from '../errors/harness-error.js';
import type { CaseResult } from '../results/model.js';
import type { SuitePartContext } from '../checks/suite-part.js';
import { loadScenarios } from './load-scenario.js';
import { runScenario } from './run-scenario.js';
import { runOrder } from './scenario-plan.js';

/** Options of {@link runScenarios}. */
interface RunScenariosOptions {
  /** Scenario files to run; when empty, every scenario of `dir`. */
  files?: string[];
  /** Folder of scenarios. @defaultValue the shipped `scenarios/` */
  dir?: string;
  /** Only the scenarios of these names (an unknown name is a usage error); empty or absent: all. */
  names?: string[];
}

/**
 * Loads (validating every file first: an invalid one throws
 * `E_SCENARIO_INVALID`) and runs scenarios one after the other (in
 * {@link runOrder}: those that wait after the others), one
 * CaseResult per scenario. With the runner's context (`reset`, `onCase`),
 * the target is reset before each scenario and each result is reported as
 * it finishes.
 */
export async function runScenarios(
  ctx: CheckContext & Partial<Pick<SuitePartContext, 'reset' | 'onCase' | 'usableAgencies' | 'waitBeside' | 'scenarioFilter'>>,
  opts: RunScenariosOptions = {},
): Promise<CaseResult[]> {
  const loaded = await loadScenarios(opts, ctx.profile);
  const names = (opts.names ?? []).map((n) => n.replace(/^scenario:/, ''));
  const unknown = names.filter((n) => !loaded.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new HarnessError('E_USAGE', `unknown scenario ${unknown.join(', ')}; known: ${loaded.map((s) => s.name).join(', ')}`);
  }
  const scenarios = runOrder(names.length > 0 ? loaded.filter((s) => names.includes(s.name)) : loaded).filter((s) => ctx.scenarioFilter?.(s.name) ?? true);
  const out: CaseResult[] = [];
  for (const s of scenarios) {
    // Against a resettable target (the mock) each scenario starts from the fixture.
    await ctx.reset?.();
    const result = await runScenario(ctx, s, ctx.usableAgencies);
    ctx.onCase?.(result);
    out.push(result);
  }
  return out;
}
