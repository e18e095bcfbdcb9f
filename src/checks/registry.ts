import { HarnessError } from '../errors/harness-error.js';
import type { Area } from '../results/model.js';
import type { Check } from './types.js';

/** Areas that are not checks but whole suite parts, selectable with `--only` too. */
const SUITE_PART_AREAS = ['scenarios', 'properties'] as const;

/** What `--only` picked: checks, and whether scenarios and properties run. */
export interface Selection {
  checks: readonly Check[];
  scenarios: boolean;
  properties: boolean;
  /** Scenario names picked one by one (`scenario:<name>`); empty means every scenario. */
  scenarioNames: string[];
  /** Property names picked one by one (`property:<name>`); empty means every property. */
  propertyNames: string[];
}

/** A validated, ordered set of checks. */
export interface Registry {
  readonly checks: readonly Check[];
  get(id: string): Check | undefined;
  /** Areas that hold at least one check, in first-seen order. */
  areas(): Area[];
  /**
   * Resolves an `--only` value (comma list of check ids, areas, `scenario:<name>` and `property:<name>`; case-insensitive);
   * no value selects everything. An unknown word is E_USAGE listing the valid ones.
   */
  select(only?: string | readonly string[]): Selection;
}

/** Builds a registry; a duplicate or empty id is an error naming it. */
export function defineRegistry(checks: readonly Check[]): Registry {
  const byId = new Map<string, Check>();
  for (const check of checks) {
    if (typeof check.id !== 'string' || check.id.trim() === '') {
      throw new HarnessError('E_INTERNAL', `a check has no id (title: ${JSON.stringify(check.title)})`);
    }
    const key = check.id.toUpperCase();
    const seen = byId.get(key);
    if (seen) throw new HarnessError('E_INTERNAL', `duplicate check id ${check.id}: "${seen.title}" and "${check.title}"`);
    byId.set(key, check);
  }
  const frozen = Object.freeze([...checks]);
  const areas = (): Area[] => [...new Set(frozen.map((c) => c.area))];

  return {
    checks: frozen,
    get: (id) => byId.get(id.toUpperCase()),
    areas,
    select(only) {
      const words = (typeof only === 'string' ? [only] : (only ?? []))
        .flatMap((w) => w.split(','))
        .map((w) => w.trim())
        .filter((w) => w !== '');
      if (words.length === 0) return { checks: frozen, scenarios: true, properties: true, scenarioNames: [], propertyNames: [] };
      const checkAreas = areas();
      const ids = new Set<string>();
      const pickedAreas = new Set<string>();
      const unknown: string[] = [];
      const named = { scenario: [] as string[], property: [] as string[] };
      for (const word of words) {
        const lower = word.toLowerCase();
        const part = /^(scenario|property):(.+)$/.exec(lower);
        if (part) named[part[1] as 'scenario' | 'property'].push(part[2]!);
        else if (byId.has(word.toUpperCase())) ids.add(word.toUpperCase());
        else if ((checkAreas as string[]).includes(lower) || (SUITE_PART_AREAS as readonly string[]).includes(lower)) pickedAreas.add(lower);
        else unknown.push(word);
      }
      if (unknown.length > 0) {
        const validAreas = [...checkAreas, ...SUITE_PART_AREAS].join(', ');
        const validIds = frozen.map((c) => c.id).join(', ');
        throw new HarnessError(
          'E_USAGE',
          `--only: unknown check or area ${unknown.map((u) => JSON.stringify(u)).join(', ')}; areas: ${validAreas}${validIds ? `; checks: ${validIds}` : ''}`,
        );
      }
      return {
        checks: frozen.filter((c) => ids.has(c.id.toUpperCase()) || pickedAreas.has(c.area)),
        scenarios: pickedAreas.has('scenarios') || named.scenario.length > 0,
        properties: pickedAreas.has('properties') || named.property.length > 0,
        // A whole area picked as well overrides the names: everything of it runs.
        scenarioNames: pickedAreas.has('scenarios') ? [] : named.scenario,
        propertyNames: pickedAreas.has('properties') ? [] : named.property,
      };
    },
  };
}
