/**
 * What the receiver answers on one path, attempt after attempt.
 *
 * - `always`: the same status every time.
 * - `sequence`: the n-th request gets `statuses[n]`; once they run out, the last one repeats.
 *
 * `delayMs` holds the answer back (real time), e.g. to outlast a sender's timeout.
 */
export type ResponsePlan = { kind: 'always'; status: number; delayMs?: number } | { kind: 'sequence'; statuses: number[]; delayMs?: number };

/** The plan of a path nobody scripted: answer 200 at once. */
export const DEFAULT_PLAN: ResponsePlan = Object.freeze({ kind: 'always', status: 200 }) as ResponsePlan;

/** Checks a plan, naming the wrong field; throws a TypeError. */
export function validatePlan(plan: ResponsePlan): void {
  const okStatus = (s: unknown): boolean => Number.isInteger(s) && (s as number) >= 100 && (s as number) <= 599;
  if (plan.kind === 'always') {
    if (!okStatus(plan.status)) throw new TypeError(`response plan status must be an HTTP status 100..599, got ${String(plan.status)}`);
  } else if (plan.kind === 'sequence') {
    if (!Array.isArray(plan.statuses) || plan.statuses.length === 0) throw new TypeError('response plan statuses must be a non-empty list');
    const bad = plan.statuses.find((s) => !okStatus(s));
    if (bad !== undefined) throw new TypeError(`response plan statuses must be HTTP statuses 100..599, got ${String(bad)}`);
  } else {
    throw new TypeError(`response plan kind must be "always" or "sequence", got ${String((plan as { kind?: unknown }).kind)}`);
  }
  if (plan.delayMs !== undefined && !(Number.isFinite(plan.delayMs) && plan.delayMs >= 0)) {
    throw new TypeError(`response plan delayMs must be ≥ 0, got ${String(plan.delayMs)}`);
  }
}

/** The status the `index`-th (0-based) request on a path gets under `plan`. */
export function statusFor(plan: ResponsePlan, index: number): number {
  if (plan.kind === 'always') return plan.status;
  return plan.statuses[Math.min(index, plan.statuses.length - 1)] ?? 200;
}
