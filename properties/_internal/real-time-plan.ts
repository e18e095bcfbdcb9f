/*
 * Against a target whose clock cannot be moved, the properties share the
 * agencies out instead of waiting windows and lifetimes one after the other:
 * quote-lock waits one quote lifetime on the main agency while
 * idempotency-model books with another, and the no-charge property fills
 * the main agency's write bucket last, so that its rest is the runner's to
 * overlap with other work. The same rules serve the plan (`agenciesOf`)
 * and the run.
 */

/** One agency as the plan sees it. */
export interface PlanAgency {
  index: number;
  /** Its write limit per window, when known. */
  writeLimit: number | undefined;
}

/** Who runs where, and in which order, in real time. */
export interface RealTimeAgencies {
  /** The agency whose write bucket the no-charge property fills. */
  noCharge: number;
  /** The agencies idempotency-model spreads its runs over (its first is the one it is planned on). */
  idempotency: number[];
  /** The agency quote-lock takes its quotes and books with. */
  quoteLock: number;
  /** quote-lock and idempotency-model run side by side (on agencies of their own), not one after the other. */
  concurrent: boolean;
  /** The order the properties' cases are reported in (the runner follows it to give agencies back). */
  order: readonly string[];
}

/** quote-lock first (the others meet its wait), the fill last (its rest is left to whatever runs next). */
const ORDER = ['quote-lock', 'idempotency-model', 'no-charge-on-429-and-failure'] as const;
/** Without quote-lock: the fill first, so that its bucket rests while idempotency-model books with the others. */
const FILL_FIRST = ['no-charge-on-429-and-failure', 'idempotency-model'] as const;

/**
 * Shares `agencies` (those the properties may use, at least one) out among
 * the `chosen` properties, holding as few as it can: the main agency (the
 * largest write bucket: quote-lock books and cancels a quote per run in one
 * window) carries quote-lock and then the fill; idempotency-model books with
 * the largest of the others meanwhile, or with every agency when it runs
 * alone. Unknown limits tie: the first wins.
 */
export function realTimeAgencies(agencies: readonly PlanAgency[], chosen: readonly string[]): RealTimeAgencies {
  const limit = (a: PlanAgency): number => a.writeLimit ?? Number.MAX_SAFE_INTEGER;
  const largest = (list: readonly PlanAgency[]): PlanAgency => list.reduce((a, b) => (limit(b) > limit(a) ? b : a));
  const main = agencies.length ? largest(agencies) : undefined;
  if (!main) throw new Error('no agency to plan the properties on');
  const has = (name: string): boolean => chosen.includes(name);
  const rest = agencies.filter((a) => a !== main);
  const order = (has('quote-lock') || rest.length === 0 ? ORDER : FILL_FIRST).filter(has);
  const concurrent = rest.length > 0 && has('quote-lock') && has('idempotency-model');
  const idempotency = concurrent ? [largest(rest)] : rest.length > 0 && (has('quote-lock') || has('no-charge-on-429-and-failure')) ? rest : [...agencies];
  return { noCharge: main.index, quoteLock: main.index, idempotency: idempotency.map((a) => a.index), concurrent, order };
}

/** The agency each named property is planned on. */
export function plannedAgency(plan: RealTimeAgencies, name: string): number {
  if (name === 'no-charge-on-429-and-failure') return plan.noCharge;
  if (name === 'quote-lock') return plan.quoteLock;
  return plan.idempotency[0]!;
}
