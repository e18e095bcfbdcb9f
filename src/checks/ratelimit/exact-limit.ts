import type { Profile } from '../../profile/index.js';
import { WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { isRefused, outlastedWindow, type RlBucket, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-01 saw: per bucket, a burst from an empty window (the write burst one after the other, the read burst sent at once). */
interface ExactLimitObservations {
  limits: { read: number; write: number };
  read: RlShot[];
  write: RlShot[];
}

/**
 * Judges RL-01: in each bucket exactly `limit` requests of a burst are
 * admitted and the rest refused (REFERENCE-API.md section 8 is exact). Only
 * the count is judged, so a burst may be sent at once.
 */
export function judgeExactLimit(obs: ExactLimitObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const counts: Record<string, number> = {};
  for (const bucket of ['read', 'write'] as RlBucket[]) {
    const shots = obs[bucket];
    const limit = obs.limits[bucket];
    const admittedShots = shots.filter((s) => !isRefused(s, profile));
    const admitted = admittedShots.length;
    counts[bucket] = admitted;
    const refusal = shots.find((s) => isRefused(s, profile));
    const lastAdmitted = admittedShots[admitted - 1];
    // Past the limit: whether the burst outlasted its window before the request over it was counted.
    const slow = admitted > limit ? outlastedWindow(shots, profile, admittedShots[limit]) : undefined;
    if (admitted < limit) {
      v.fail(
        `${bucket} bucket: request ${admitted + 1} of a burst was refused, but the limit is ${limit} per window (${admitted} of ${shots.length} admitted)`,
        lastAdmitted?.exchangeId,
        refusal?.exchangeId,
      );
    } else if (admitted > limit && slow !== undefined) {
      v.warn(`${bucket} bucket: ${admitted} requests of a burst were admitted, the limit is ${limit}, but ${slow}`, admittedShots[limit]?.exchangeId);
    } else if (admitted > limit) {
      v.fail(
        `${bucket} bucket: ${admitted} requests of a burst were admitted, the limit is ${limit}; request ${limit + 1} should have been refused`,
        admittedShots[limit]?.exchangeId,
        admittedShots[limit - 1]?.exchangeId,
      );
    } else if (!refusal) {
      v.fail(`${bucket} bucket: the burst ended after ${shots.length} requests without a refusal`, lastAdmitted?.exchangeId);
    } else {
      v.see(lastAdmitted?.exchangeId, refusal.exchangeId);
    }
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
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    return judgeExactLimit({ limits: ep.limits, read: ep.readBurst, write: ep.fill }, ctx.profile);
  },
};
