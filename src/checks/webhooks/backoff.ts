import type { Profile } from '../../profile/index.js';
import { gapToleranceMs, runEvidence, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { expectedGapMs, whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-05 on a failing delivery: the gap before attempt n + 1 is
 * `base × factor^(n−1)` within the larger of 1.5 s and 20 %, and (when the
 * factor is above 1) each gap is at least (1 + factor) / 2 times the one
 * before, so constant delays fail whatever the tolerance.
 */
export function judgeBackoff(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const booking = run.exchanges.booking;
  const { factor, max_attempts: max } = profile.webhooks;
  const considered = run.attempts.slice(0, max);
  if (considered.length < 2) {
    v.warn(`only ${considered.length} attempt(s) reached a receiver answering ${run.plan}, so no retry delay could be measured (see WH-03)`);
    return v.outcome('');
  }
  const gaps: number[] = [];
  for (let i = 1; i < considered.length; i++) gaps.push(considered[i]!.receivedAt - considered[i - 1]!.receivedAt);
  gaps.forEach((gap, i) => {
    const expected = expectedGapMs(profile, i + 1);
    const tol = gapToleranceMs(expected);
    if (Math.abs(gap - expected) > tol) {
      v.fail(
        `attempt ${i + 2} came ${(gap / 1000).toFixed(1)} s after attempt ${i + 1}, expected ${(expected / 1000).toFixed(1)} s ± ${(tol / 1000).toFixed(1)} s`,
        booking,
      );
    }
    const prev = gaps[i - 1];
    if (prev !== undefined && factor > 1 && gap < (prev * (1 + factor)) / 2) {
      v.fail(`the delay grew from ${(prev / 1000).toFixed(1)} s to only ${(gap / 1000).toFixed(1)} s: not exponential (factor ${factor})`, booking);
    }
  });
  return v.outcome(
    `retry delays ${gaps.map((g) => `${(g / 1000).toFixed(1)} s`).join(', ')} follow base ${profile.webhooks.base_ms / 1000} s × factor ${factor}`,
    { gapsMs: gaps },
  );
}

/** WH-05: exponential backoff. */
export const backoffCheck: Check = {
  id: 'WH-05',
  title: 'Retries follow exponential backoff (base, then base × factor)',
  area: 'webhooks',
  clause: 'SPEC §6: retried twice with exponential backoff',
  ...whScenarioUse('failing'),
  async run(ctx) {
    return judgeBackoff(await whScenario(ctx, 'failing'), ctx.profile);
  },
};
