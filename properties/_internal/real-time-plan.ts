/*
 * Against a target whose clock cannot be moved, the properties share the
 * agencies out instead of waiting windows and lifetimes one after the other:
 * one agency's write bucket is filled (the no-charge property), one waits a
 * quote lifetime (quote-lock), and idempotency-model books on the rest while
 * the quotes age. The same rules serve the plan (`agenciesOf`) and the run.
 */

/** One agency as the plan sees it. */
export interface PlanAgency {
  index: number;
  /** Its write limit per window, when the profile gives it. */
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
  /** quote-lock runs alongside the others (it has an agency of its own), not after them. */
  concurrent: boolean;
  /** The order the properties' cases run and are reported in. */
  order: readonly string[];
}

/** Order when the properties have at least two agencies: the fill first, so that its bucket rests while the others run. */
const SPREAD_ORDER = ['no-charge-on-429-and-failure', 'idempotency-model', 'quote-lock'] as const;
/** Order with a single agency: the fill last, its rest left to whatever runs next. */
const SINGLE_ORDER = ['idempotency-model', 'quote-lock', 'no-charge-on-429-and-failure'] as const;

/**
 * Shares `agencies` (those the properties may use, at least one) out among
 * the `chosen` properties: the smallest write bucket is the cheapest to fill,
 * the largest of the others carries quote-lock's bookings, the rest books the
 * idempotency runs (with two agencies, quote-lock's, before it; with one, all
 * run on it one after the other). Unknown limits tie: the first wins.
 */
export function realTimeAgencies(agencies: readonly PlanAgency[], chosen: readonly string[]): RealTimeAgencies {
  const limit = (a: PlanAgency): number => a.writeLimit ?? Number.MAX_SAFE_INTEGER;
  const [first] = agencies;
  if (!first) throw new Error('no agency to plan the properties on');
  const order = (agencies.length === 1 ? SINGLE_ORDER : SPREAD_ORDER).filter((n) => chosen.includes(n));
  if (agencies.length === 1) return { noCharge: first.index, idempotency: [first.index], quoteLock: first.index, concurrent: false, order };
  let rest = [...agencies];
  const fill = chosen.includes('no-charge-on-429-and-failure') ? rest.reduce((a, b) => (limit(b) < limit(a) ? b : a)) : undefined;
  rest = rest.filter((a) => a !== fill);
  const quotes = chosen.includes('quote-lock') ? rest.reduce((a, b) => (limit(b) > limit(a) ? b : a)) : undefined;
  // quote-lock has an agency of its own when one is left for idempotency-model.
  const concurrent = quotes !== undefined && rest.length > 1;
  const idempotency = (concurrent ? rest.filter((a) => a !== quotes) : rest).map((a) => a.index);
  return {
    noCharge: fill?.index ?? first.index,
    idempotency,
    quoteLock: quotes?.index ?? first.index,
    concurrent,
    order,
  };
}

/** The agency each named property is planned on. */
export function plannedAgency(plan: RealTimeAgencies, name: string): number {
  if (name === 'no-charge-on-429-and-failure') return plan.noCharge;
  if (name === 'quote-lock') return plan.quoteLock;
  return plan.idempotency[0]!;
}
