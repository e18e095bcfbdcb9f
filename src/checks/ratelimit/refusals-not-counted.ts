import type { Profile } from '../../profile/types.js';
import { fillUntilRefused, limitsUnknown, RL_EDGE_MARGIN_MS, rlLimits, rlProbes, sendMany, waitUntil, windowMs } from '../_internal/rl-probes.js';
import { admittedBeforeRefusal, describeShot, isRefused, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../_internal/findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** Refused requests RL-08 sends half a window after the fill. */
export const REFUSED_EXTRA = 5;

/** What RL-08 saw (write bucket of the primary agency). */
export interface RefusalsNotCountedObservations {
  limit: number;
  /** Writes from an empty window until the first refusal. */
  fill: RlShot[];
  /** More writes half a window later, while the bucket is still full: all refused. */
  refused: RlShot[];
  /** One window after the fill: sent until refused; the whole limit must be admitted. */
  after: RlShot[];
}

/**
 * Judges RL-08: requests answered 429 are not counted, so one window after
 * the last admitted request the whole limit is available again although
 * refused requests were sent inside that window.
 */
export function judgeRefusalsNotCounted(obs: RefusalsNotCountedObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const last = obs.fill[obs.fill.length - 1];
  if (!last || !isRefused(last, profile)) {
    v.fail(`the write bucket never refused a request (${obs.fill.length} sent, limit ${obs.limit})`, last?.exchangeId);
    return v.outcome('');
  }
  v.see(last.exchangeId);
  const slipped = obs.refused.find((s) => !isRefused(s, profile));
  if (slipped) v.fail(`half a window after the bucket filled, ${describeShot(slipped)} was admitted`, slipped.exchangeId);
  else v.see(obs.refused[0]?.exchangeId);
  const admitted = admittedBeforeRefusal(obs.after, profile);
  const edge = obs.after[admitted] ?? obs.after[obs.after.length - 1];
  if (admitted < obs.limit) {
    v.fail(
      `one window after the bucket filled only ${admitted} of ${obs.limit} requests were admitted: the ${obs.refused.length} requests refused half a window earlier were counted`,
      edge?.exchangeId,
      ...obs.refused.map((s) => s.exchangeId),
    );
  } else if (admitted > obs.limit) {
    v.fail(`one window after the bucket filled ${admitted} requests were admitted, the limit is ${obs.limit}`, edge?.exchangeId);
  } else v.see(edge?.exchangeId);
  return v.outcome(`refused requests were not counted: the whole limit of ${obs.limit} was available one window after the bucket filled`, {
    limit: obs.limit,
    admittedAfterWindow: admitted,
  });
}

/** RL-08: 429s are not counted. */
export const refusalsNotCountedCheck: Check = {
  id: 'RL-08',
  title: 'Refused requests are not counted: after the window the whole limit is available',
  area: 'ratelimit',
  clause: 'SPEC §8.3: the counting window is a rolling one minute (REFERENCE-API §8: requests answered 429 are not counted)',
  needs: [],
  fills: ['0:write'],
  // One window and a quarter second; real time against a real service.
  waitsMs: (p) => windowMs(p) + 1000,
  async run(ctx) {
    const limits = await rlLimits(ctx, 0);
    if ('error' in limits) return limitsUnknown(limits);
    const W = windowMs(ctx.profile);
    const probes = rlProbes(ctx, 0);
    const fill = await fillUntilRefused(probes, 'write', limits.write + 2, 'fill', ctx.profile);
    const filledAt = ctx.clock.now();
    await waitUntil(ctx, filledAt + W / 2);
    const refused = await sendMany(probes, 'write', REFUSED_EXTRA, 'refused mid-window');
    await waitUntil(ctx, filledAt + W + RL_EDGE_MARGIN_MS);
    const after = await fillUntilRefused(probes, 'write', limits.write + 1, 'after the window', ctx.profile);
    return judgeRefusalsNotCounted({ limit: limits.write, fill, refused, after }, ctx.profile);
  },
};
