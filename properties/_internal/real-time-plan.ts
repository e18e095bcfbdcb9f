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
 * the properties: the smallest write bucket is the cheapest to fill, the
 * largest of the others carries quote-lock's bookings, the rest books the
 * idempotency runs. With two agencies idempotency-model books with
 * quote-lock's before it; with one, all run on it one after the other.
 */
export function realTimeAgencies(agencies: readonly PlanAgency[], chosen: readonly string[]): RealTimeAgencies {
  const limit = (a: PlanAgency): number => a.writeLimit ?? Number.MAX_SAFE_INTEGER;
  const [only] = agencies;
  if (!only) throw new Error('no agency to plan the properties on');
  const order = (agencies.length === 1 ? SINGLE_ORDER : SPREAD_ORDER).filter((n) => chosen.includes(n));
  if (agencies.length === 1) return { noCharge: only.index, idempotency: [only.index], quoteLock: only.index, concurrent: false, order };
  const fill = agencies.reduce((a, b) => (limit(b) < limit(a) ? b : a));
  const rest = agencies.filter((a) => a !== fill);
  const quotes = rest.reduce((a, b) => (limit(b) > limit(a) ? b : a));
  const others = rest.filter((a) => a !== quotes).map((a) => a.index);
  // An agency no chosen property takes books idempotency runs.
  const idempotency = [
    ...(chosen.includes('no-charge-on-429-and-failure') ? [] : [fill.index]),
    ...others,
    ...(chosen.includes('quote-lock') && others.length > 0 ? [] : [quotes.index]),
  ].sort((a, b) => a - b);
  return {
    noCharge: fill.index,
    idempotency: idempotency.length ? idempotency : [quotes.index],
    quoteLock: quotes.index,
    concurrent: chosen.includes('quote-lock') && !idempotency.includes(quotes.index),
    order,
  };
}

/** The agency each named property is planned on. */
export function plannedAgency(plan: RealTimeAgencies, name: string): number {
  if (name === 'no-charge-on-429-and-failure') return plan.noCharge;
  if (name === 'quote-lock') return plan.quoteLock;
  return plan.idempotency[0]!;
}
