import type { Profile } from '../../profile/index.js';
import {
  BURST_WIDTH,
  limitsUnknown,
  RL_EDGE_MARGIN_MS,
  rlLimits,
  rlProbes,
  sendConcurrently,
  sendCounted,
  waitUntil,
  windowMs,
} from '../_internal/rl-probes.js';
import { admittedBeforeRefusal, answeredAt, describeShot, isRefused, type RlShot } from '../_internal/rl-shot.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-04 saw (write bucket of the primary agency, from an empty window). */
interface RollingWindowObservations {
  limit: number;
  /** `floor(limit / 2)` requests at t0. */
  firstHalf: RlShot[];
  /** The rest of the limit, half a window later. */
  secondHalf: RlShot[];
  /** One more right after: the window holds `limit` requests, so it must be refused. */
  overflow: RlShot;
  /** Just after t0 + window: sent until refused; exactly the first half's count must be admitted. */
  afterFirstHalfExpired: RlShot[];
}

/**
 * Judges RL-04. A rolling window admits, just after t0 + window, exactly as
 * many requests as were admitted at t0 (the second half still counts).
 * A fixed clock-minute window breaks one of the two promises wherever t0
 * falls in the minute: a boundary between t0 and t0 + ½ window lets the
 * overflow in; a boundary between t0 + ½ window and t0 + window frees the
 * whole limit at once.
 */
export function judgeRollingWindow(obs: RollingWindowObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const W = windowMs(profile);
  const halfA = obs.firstHalf.length;
  const badA = obs.firstHalf.find((s) => isRefused(s, profile));
  if (badA) v.fail(`the first ${halfA} requests of an empty window were not all admitted: ${describeShot(badA)}`, badA.exchangeId);
  const badB = obs.secondHalf.find((s) => isRefused(s, profile));
  if (badB)
    v.fail(
      `the next ${obs.secondHalf.length} requests half a window later (${obs.limit} in all) were not all admitted: ${describeShot(badB)}`,
      badB.exchangeId,
    );
  const firstSent = Math.min(...obs.firstHalf.map((s) => s.at));
  const overflowIn = !isRefused(obs.overflow, profile);
  if (overflowIn && answeredAt(obs.overflow) >= firstSent + W) {
    // Counted anywhere up to its answer: one window after the first half went out, that half may have left the window.
    v.warn(
      `request ${obs.limit + 1} was admitted, but its answer came ${((answeredAt(obs.overflow) - firstSent) / 1000).toFixed(2)} s after the first of t0's went out (a window is ${W / 1000} s): too late to show that the count restarted`,
      obs.overflow.exchangeId,
    );
  } else if (overflowIn) {
    v.fail(
      `request ${obs.limit + 1} within one window (${halfA} at t0, ${obs.secondHalf.length} at t0 + ${profile.limits.window_s / 2} s) was admitted: the count restarted between them, as a fixed clock-minute window does`,
      obs.overflow.exchangeId,
      obs.firstHalf[0]?.exchangeId,
    );
  } else v.see(obs.overflow.exchangeId);
  // Just after t0 + window the second half still counts, and so does the overflow where it was admitted.
  const free = halfA - (overflowIn ? 1 : 0);
  const admitted = admittedBeforeRefusal(obs.afterFirstHalfExpired, profile);
  const edge = obs.afterFirstHalfExpired[admitted] ?? obs.afterFirstHalfExpired[obs.afterFirstHalfExpired.length - 1];
  const secondSent = Math.min(...obs.secondHalf.map((s) => s.at));
  if (admitted > free && edge !== undefined && answeredAt(edge) >= secondSent + W) {
    v.warn(
      `just after t0 + ${profile.limits.window_s} s, ${admitted} requests were admitted, but the last answer came ${((answeredAt(edge) - secondSent) / 1000).toFixed(2)} s after the ${obs.secondHalf.length} of t0 + ${profile.limits.window_s / 2} s went out: too late to show they still counted`,
      edge.exchangeId,
    );
  } else if (admitted > free) {
    v.fail(
      `just after t0 + ${profile.limits.window_s} s, ${admitted} requests were admitted although only the ${halfA} sent at t0 had left the window (the ${obs.secondHalf.length} sent at t0 + ${profile.limits.window_s / 2} s still count): the window is not rolling`,
      edge?.exchangeId,
      obs.secondHalf[0]?.exchangeId,
    );
  } else if (admitted < free) {
    v.fail(
      `just after t0 + ${profile.limits.window_s} s, only ${admitted} requests were admitted although the ${halfA} sent at t0 had left the window: requests older than the window still counted`,
      edge?.exchangeId,
      obs.firstHalf[0]?.exchangeId,
    );
  } else v.see(edge?.exchangeId);
  return v.outcome(`the window rolled: ${halfA} slots freed exactly one window after t0, while the ${obs.secondHalf.length} later requests still counted`, {
    limit: obs.limit,
    firstHalf: halfA,
    secondHalf: obs.secondHalf.length,
    admittedAfterFirstHalfExpired: admitted,
  });
}

/** RL-04: the counting window rolls. */
export const rollingWindowCheck: Check = {
  id: 'RL-04',
  title: 'The counting window is a rolling one, not a fixed clock minute',
  area: 'ratelimit',
  clause: 'SPEC §8.3: the counting window is a rolling one minute',
  needs: [],
  uses: {
    // The limits are read (one read); no wallet: any agency serves it, beside the write episode.
    touches: ['0:read', '0:write'],
    fills: ['0:write'],
    requests: { read: 2, write: 0 },
    // One window and a quarter second; against a real service this is real time.
    wait: { ms: (p) => windowMs(p) + 1000 },
  },
  async run(ctx) {
    const limits = await rlLimits(ctx, 0);
    if ('error' in limits) return limitsUnknown(limits);
    if (limits.write < 2) return skipped(`a write limit of ${limits.write} cannot be split in two halves`);
    const W = windowMs(ctx.profile);
    const probes = rlProbes(ctx, 0);
    const half = Math.floor(limits.write / 2);
    // Only how many were admitted matters in each half: sent at once.
    const firstHalf = await sendConcurrently(probes, 'write', half, 't0', BURST_WIDTH);
    // t0 is after the last of the first half arrived: every one of them was counted at or before it.
    const t0 = ctx.clock.now();
    await waitUntil(ctx, t0 + W / 2);
    const secondHalf = await sendConcurrently(probes, 'write', limits.write - half, 't0 + half window', BURST_WIDTH);
    const overflow = await probes.write('overflow');
    await waitUntil(ctx, t0 + W + RL_EDGE_MARGIN_MS);
    const afterFirstHalfExpired = await sendCounted(probes, 'write', limits.write + 1, 't0 + window', ctx.profile);
    return judgeRollingWindow({ limit: limits.write, firstHalf, secondHalf, overflow, afterFirstHalfExpired }, ctx.profile);
  },
};
