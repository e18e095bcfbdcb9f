import type { Area } from '../report/model.js';
import * as areas from './areas.js';
import { defineRegistry, type Registry } from './registry.js';
import type { Check } from './types.js';

export { defineRegistry, SUITE_PART_AREAS, type Registry, type Selection } from './registry.js';
export type { Check, CheckContext, CheckOutcome, Need } from './types.js';

/** The order areas appear in runs and reports: the order of the specification. */
export const AREA_ORDER: readonly Area[] = ['auth', 'contract', 'errors', 'ratelimit', 'idempotency', 'quotes', 'wallet', 'webhooks', 'hotel', 'schema'];

function rank(area: Area): number {
  const i = AREA_ORDER.indexOf(area);
  return i < 0 ? AREA_ORDER.length : i;
}

/** Every check of the harness, in specification order (stable within an area). */
export const ALL_CHECKS: readonly Check[] = Object.freeze(
  (Object.values(areas) as Check[][])
    .flat()
    .map((check, i) => ({ check, i }))
    .sort((a, b) => rank(a.check.area) - rank(b.check.area) || a.i - b.i)
    .map(({ check }) => check),
);

let registry: Registry | undefined;

/** The registry of every check (built once; a duplicate id throws). */
export function defaultRegistry(): Registry {
  registry ??= defineRegistry(ALL_CHECKS);
  return registry;
}
