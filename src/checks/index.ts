import type { Area } from '../results/model.js';
import { AREA_CHECKS } from './areas.js';
import { defineRegistry, type Registry } from './registry.js';
import type { Check } from './types.js';

export { AREA_CHECKS } from './areas.js';
export { defineRegistry } from './registry.js';
/** The order areas appear in runs and reports: the order of the specification. */
export const AREA_ORDER: readonly Area[] = Object.freeze(AREA_CHECKS.map(([area]) => area));

/** Every check of the harness, in specification order (stable within an area). */
export const ALL_CHECKS: readonly Check[] = Object.freeze(AREA_CHECKS.flatMap(([, checks]) => checks));

/** The check that proves the harness's access before any other runs (its phase is `baseline`). */
export const BASELINE_CHECK: string | undefined = ALL_CHECKS.find((c) => c.phase === 'baseline')?.id;

let registry: Registry | undefined;

/** The registry of every check (built once; a duplicate id throws). */
export function defaultRegistry(): Registry {
  registry ??= defineRegistry(ALL_CHECKS);
  return registry;
}
