import type { Profile } from '../../profile/index.js';
import { WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { skipped } from '../findings.js';
import type { RlShot } from '../_internal/rl-shot.js';
import type { Check, CheckOutcome } from '../types.js';
import { judgeCrossPhases } from './buckets-apart.js';

/** What RL-06 saw: the primary agency's write bucket filled, then a write and a read of the second agency. */
interface AgenciesApartObservations {
  fill: RlShot[];
  otherWrite: RlShot;
  otherRead: RlShot;
}

/** Judges RL-06: filling one agency's bucket leaves another agency admitted. */
export function judgeAgenciesApart(obs: AgenciesApartObservations, profile: Profile): CheckOutcome {
  return judgeCrossPhases(
    [
      { filled: 'write', fill: obs.fill, cross: obs.otherWrite },
      { filled: 'write', fill: obs.fill, cross: obs.otherRead },
    ],
    profile,
    (p) => `a ${p.cross.bucket} of the second agency sent while the primary agency's write bucket was full`,
    "limits are per agency: the second agency was admitted while the primary's write bucket was full",
  );
}

/** RL-06: limits apply per agency. */
export const agenciesApartCheck: Check = {
  id: 'RL-06',
  title: "One agency's full bucket does not throttle another agency",
  area: 'ratelimit',
  clause: 'SPEC §8.1 and §5: limits apply per agency; rate limits belong to the agency',
  needs: ['second-agency'],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    if (!ep.other) return skipped('the profile names no second agency');
    return judgeAgenciesApart({ fill: ep.fill, otherWrite: ep.other.write, otherRead: ep.other.read }, ctx.profile);
  },
};
