import { HarnessError, isHarnessError } from '../errors/harness-error.js';
import { parseThreshold } from '../load/gate/gates.js';

/** The forms of the ids a load gives its verdicts and gates (see load/load-verdicts.ts, load/load-wallets.ts, load/gates.ts). */
const LOAD_VERDICT_ID = /^load:(window-limit|early-throttle|retry-after|headers):[^:\s]+:(read|write)$/;
const LOAD_WALLET_ID = /^load:wallet:[^:\s]+$/;
const BASELINE_GATE_ID = /^gate:baseline:[A-Za-z0-9_.-]+$/;

/** The case ids a known-issues entry may name: the checks, scenarios and properties by name, and the id forms of a load's verdicts and gates. */
export interface CaseIdCatalogue {
  /** Check ids (`RL-04`), matched without regard to case, as `--only` does. */
  checks: readonly string[];
  /** Scenario names (`happy-flights`): the case id is `scenario:<name>`. */
  scenarios: readonly string[];
  /** Property names (`quote-lock`): the case id is `property:<name>`. */
  properties: readonly string[];
}

/** The catalogue of the harness: its registry's checks, the shipped scenarios (and the named files), its properties. */
export async function harnessCaseIds(scenarioFiles: readonly string[] = []): Promise<CaseIdCatalogue> {
  const [{ defaultRegistry }, { loadScenarios }, { PROPERTIES }] = await Promise.all([
    import('../checks/index.js'),
    import('../scenario/load-scenario.js'),
    import('../../properties/index.js'),
  ]);
  const shipped = await loadScenarios();
  const named = scenarioFiles.length > 0 ? await loadScenarios({ files: [...scenarioFiles] }) : [];
  return { checks: defaultRegistry().checks.map((c) => c.id), scenarios: [...shipped, ...named].map((s) => s.name), properties: PROPERTIES.map((p) => p.name) };
}

/**
 * The id as cases carry it (a check id in the registry's spelling), or
 * undefined when no case of any run can have it: a typo must not silently
 * excuse nothing.
 */
export function canonicalCaseId(id: string, catalogue: CaseIdCatalogue): string | undefined {
  const check = catalogue.checks.find((c) => c.toUpperCase() === id.toUpperCase());
  if (check !== undefined) return check;
  if (id.startsWith('scenario:')) return catalogue.scenarios.includes(id.slice('scenario:'.length)) ? id : undefined;
  if (id.startsWith('property:')) return catalogue.properties.includes(id.slice('property:'.length)) ? id : undefined;
  if (LOAD_VERDICT_ID.test(id) || LOAD_WALLET_ID.test(id) || BASELINE_GATE_ID.test(id)) return id;
  if (id.startsWith('gate:')) {
    try {
      // A gate's id is `gate:` and its expression as written on the command line.
      return `gate:${parseThreshold(id.slice('gate:'.length)).source}`;
    } catch (err) {
      if (isHarnessError(err)) return undefined;
      throw err;
    }
  }
  return undefined;
}

/** Why an id is unknown, with the forms that are, for the one-line error. */
export function unknownIdError(file: string, index: number, id: string): HarnessError {
  return new HarnessError(
    'E_KNOWN_ISSUES_INVALID',
    `known issues ${file}: entry ${index + 1} names ${JSON.stringify(id)}, which is no case id (a check id such as RL-04, scenario:<name>, property:<name>, load:<window-limit|early-throttle|retry-after|headers>:<agency>:<read|write>, load:wallet:<agency>, gate:<threshold> or gate:baseline:<metric>; \`svc-harness checks\` lists the checks)`,
  );
}
