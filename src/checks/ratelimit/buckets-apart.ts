import type { Profile } from '../../profile/types.js';
import { fillUntilRefused, limitsUnknown, RL_EDGE_MARGIN_MS, rlLimits, rlProbes, waitUntil, windowMs } from '../_internal/rl-probes.js';
import { describeShot, isRefused, type RlBucket, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../_internal/findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** One direction of RL-05: fill a bucket, then send one request of the other bucket. */
export interface CrossPhase {
  filled: RlBucket;
  fill: RlShot[];
  /** The request of the other bucket, sent while `filled` is full. */
  cross: RlShot;
}

/** What RL-05 saw: writes filled then a read; a window later, reads filled then a write. */
export interface BucketsApartObservations {
  phases: CrossPhase[];
}

/** Judges RL-05 (and RL-06, whose phases cross agencies): a full bucket never refuses a request counted elsewhere. */
export function judgeCrossPhases(phases: readonly CrossPhase[], profile: Profile, what: (p: CrossPhase) => string, pass: string): CheckOutcome {
  const v = new Findings();
  for (const p of phases) {
    const last = p.fill[p.fill.length - 1];
    if (!last || !isRefused(last, profile)) {
      v.fail(`${what(p)}: the ${p.filled} bucket never refused a request (${p.fill.length} sent), so it could not be judged full`, last?.exchangeId);
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
  fills: ['0:read', '0:write'],
  // Between the two directions the write bucket must empty: one window; real time against a real service.
  waitsMs: (p) => windowMs(p) + 1000,
  async run(ctx) {
    const limits = await rlLimits(ctx, 0);
    if ('error' in limits) return limitsUnknown(limits);
    const probes = rlProbes(ctx, 0);
    const writeFill = await fillUntilRefused(probes, 'write', limits.write + 2, 'fill writes', ctx.profile);
    // Every admitted write was counted by now.
    const lastWrite = ctx.clock.now();
    const readCross = await probes.read('read while writes are full');
    // The write bucket is empty again one window after its last admitted request.
    await waitUntil(ctx, lastWrite + windowMs(ctx.profile) + RL_EDGE_MARGIN_MS);
    const readFill = await fillUntilRefused(probes, 'read', limits.read + 2, 'fill reads', ctx.profile);
    const writeCross = await probes.write('write while reads are full');
    return judgeBucketsApart(
      {
        phases: [
          { filled: 'write', fill: writeFill, cross: readCross },
          { filled: 'read', fill: readFill, cross: writeCross },
        ],
      },
      ctx.profile,
    );
  },
};
