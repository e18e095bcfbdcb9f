import type { Profile } from '../../profile/types.js';
import { fillUntilRefused, limitsUnknown, rlLimits, rlProbes } from '../_internal/rl-probes.js';
import { admittedBeforeRefusal, describeShot, isRefused, type RlBucket, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../_internal/findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-01 saw: per bucket, a burst from an empty window (the limits read, when made, is the first read). */
export interface ExactLimitObservations {
  limits: { read: number; write: number };
  read: RlShot[];
  write: RlShot[];
}

/**
 * Judges RL-01: in each bucket exactly `limit` requests of a burst are
 * admitted and the next one is refused (REFERENCE-API.md section 8 is exact).
 */
export function judgeExactLimit(obs: ExactLimitObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const counts: Record<string, number> = {};
  for (const bucket of ['read', 'write'] as RlBucket[]) {
    const shots = obs[bucket];
    const limit = obs.limits[bucket];
    const admitted = admittedBeforeRefusal(shots, profile);
    counts[bucket] = admitted;
    const refusal = shots[admitted];
    const lastAdmitted = shots[admitted - 1];
    if (admitted < limit) {
      v.fail(
        `${bucket} bucket: request ${admitted + 1} of a burst was refused, but the limit is ${limit} per window (${admitted} admitted)`,
        lastAdmitted?.exchangeId,
        refusal?.exchangeId,
      );
    } else if (admitted > limit) {
      v.fail(`${bucket} bucket: ${admitted} requests of a burst were admitted, the limit is ${limit}; request ${limit + 1} should have been refused`, shots[limit]?.exchangeId, shots[limit - 1]?.exchangeId);
    } else if (!refusal) {
      v.fail(`${bucket} bucket: the burst ended after ${shots.length} requests without a refusal`, lastAdmitted?.exchangeId);
    } else {
      v.see(lastAdmitted?.exchangeId, refusal.exchangeId);
    }
    const late = shots.slice(admitted + 1).find((s) => !isRefused(s, profile));
    if (late) v.fail(`${bucket} bucket: ${describeShot(late)} was admitted right after a refusal`, late.exchangeId);
  }
  return v.outcome(`exactly the limit was admitted in each bucket (read ${obs.limits.read}, write ${obs.limits.write}), the next request refused`, {
    limits: obs.limits,
    admitted: counts,
  });
}

/** RL-01: exactly `limit` requests per window, the next one refused. */
export const exactLimitCheck: Check = {
  id: 'RL-01',
  title: 'Each bucket admits exactly its limit in a burst and refuses the next request',
  area: 'ratelimit',
  clause: 'SPEC §8.1–8.2: limits apply per agency, reads and writes counted separately (REFERENCE-API §8: exactly `limit` per rolling window)',
  needs: [],
  fills: ['0:read', '0:write'],
  waitsMs: () => 0,
  async run(ctx) {
    const limits = await rlLimits(ctx, 0);
    if ('error' in limits) return limitsUnknown(limits);
    const probes = rlProbes(ctx, 0);
    // The account read that told the limits is the first read of the window.
    const read = [...limits.shots];
    read.push(...(await fillUntilRefused(probes, 'read', limits.read + 2 - read.length, 'burst', ctx.profile)));
    const write = await fillUntilRefused(probes, 'write', limits.write + 2, 'burst', ctx.profile);
    return judgeExactLimit({ limits: { read: limits.read, write: limits.write }, read, write }, ctx.profile);
  },
};
