import type { Profile } from '../../profile/index.js';
import { WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { describeShot, isRefused, judgeUnrefusedFill, type RlBucket, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** One direction of RL-05: fill a bucket, then send one request of the other bucket. */
interface CrossPhase {
  filled: RlBucket;
  fill: RlShot[];
  /** The request of the other bucket, sent while `filled` is full. */
  cross: RlShot;
}

/** What RL-05 saw: writes filled then a read; a window later, reads filled (sent at once) then a write. */
interface BucketsApartObservations {
  phases: CrossPhase[];
}

/** Judges RL-05 (and RL-06, whose phases cross agencies): a full bucket never refuses a request counted elsewhere. */
export function judgeCrossPhases(phases: readonly CrossPhase[], profile: Profile, what: (p: CrossPhase) => string, pass: string): CheckOutcome {
  const v = new Findings();
  for (const p of phases) {
    // A burst sent at once may answer its refusal anywhere in it.
    const last = p.fill.find((s) => isRefused(s, profile));
    if (!last) {
      judgeUnrefusedFill(
        v,
        p.fill,
        profile,
        `${what(p)}: the ${p.filled} bucket never refused a request (${p.fill.length} sent)`,
        'so it could not be judged full',
      );
      continue;
    }
    if (isRefused(p.cross, profile)) {
      v.fail(`${what(p)} was refused, ${describeShot(p.cross)}: it was counted with the full ${p.filled} bucket`, last.exchangeId, p.cross.exchangeId);
    } else v.see(last.exchangeId, p.cross.exchangeId);
  }
  return v.outcome(pass);
}

/** Judges RL-05: a full write bucket leaves reads admitted and a full read bucket leaves writes admitted. */
export function judgeBucketsApart(obs: BucketsApartObservations, profile: Profile): CheckOutcome {
  return judgeCrossPhases(
    obs.phases,
    profile,
    (p) => `a ${p.filled === 'write' ? 'read' : 'write'} sent while the ${p.filled} bucket was full`,
    'reads and writes are counted apart: each full bucket left the other admitting',
  );
}

/** RL-05: reads and writes are counted separately. */
export const bucketsApartCheck: Check = {
  id: 'RL-05',
  title: 'Reads and writes are counted in separate buckets',
  area: 'ratelimit',
  clause: 'SPEC §8.2: reads and writes are counted separately',
  needs: [],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    return judgeBucketsApart(
      {
        phases: [
          { filled: 'write', fill: ep.fill, cross: ep.readCross },
          { filled: 'read', fill: ep.readBurst, cross: ep.writeCross },
        ],
      },
      ctx.profile,
    );
  },
};
