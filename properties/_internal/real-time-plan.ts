/*
 * Against a target whose clock cannot be moved, the properties run on one
 * agency (its wallet is theirs, one property at a time), so that the runner
 * keeps every other agency for other work, and none waits a window:
 * quote-lock waits one quote lifetime for all its runs, idempotency-model
 * books with what the write bucket has free after it, and the no-charge
 * property fills the bucket last, so that its rest is the runner's to
 * overlap. The first two leave the buckets usable: in a suite they may run
 * beside a scenario's long wait. The same rules serve the plan (`agenciesOf`)
 * and the run.
 */

/** One agency as the plan sees it. */
export interface PlanAgency {
  index: number;
  /** Its write limit per window, when known. */
  writeLimit: number | undefined;
}

/** Who runs where, and in which order, in real time. */
interface RealTimeAgencies {
  /** The agency whose write bucket the no-charge property fills. */
  noCharge: number;
  /** The agencies idempotency-model spreads its runs over (its first is the one it is planned on). */
  idempotency: number[];
  /** The agency quote-lock takes its quotes and books with. */
  quoteLock: number;
  /** The order the properties' cases are reported in (the runner follows it to give agencies back). */
  order: readonly string[];
}

/**
 * quote-lock first (its bookings before the expiry need the writes free when it takes its quotes), idempotency-model with what it leaves,
 * openapi-inputs with what is left then (it books nothing: the writes it cannot fit are left out), the fill last (its rest is left to whatever runs next).
 */
const ORDER = ['quote-lock', 'idempotency-model', 'openapi-inputs', 'no-charge-on-429-and-failure'] as const;

/**
 * Shares `agencies` (those the properties may use, at least one) out among
 * the `chosen` properties: everything on the main agency (the largest write
 * bucket: quote-lock books and cancels a quote per run within a window),
 * except idempotency-model run alone, which spreads over every agency.
 * Unknown limits tie: the first wins.
 */
export function realTimeAgencies(agencies: readonly PlanAgency[], chosen: readonly string[]): RealTimeAgencies {
  const limit = (a: PlanAgency): number => a.writeLimit ?? Number.MAX_SAFE_INTEGER;
  const main = agencies.length ? agencies.reduce((a, b) => (limit(b) > limit(a) ? b : a)) : undefined;
  if (!main) throw new Error('no agency to plan the properties on');
  const has = (name: string): boolean => chosen.includes(name);
  const alone = has('idempotency-model') && chosen.length === 1;
  return {
    noCharge: main.index,
    quoteLock: main.index,
    idempotency: alone ? agencies.map((a) => a.index) : [main.index],
    order: ORDER.filter(has),
  };
}

/** The agency each named property is planned on. */
export function plannedAgency(plan: RealTimeAgencies, name: string): number {
  if (name === 'no-charge-on-429-and-failure') return plan.noCharge;
  if (name === 'quote-lock' || name === 'openapi-inputs') return plan.quoteLock;
  return plan.idempotency[0]!;
}
