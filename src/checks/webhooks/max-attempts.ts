import type { Profile } from '../../profile/index.js';
import { describeAttempts, runEvidence, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-03 on a run against a receiver that always fails: exactly
 * `webhooks.max_attempts` attempts (the first and its retries), and no more
 * however long the receiver is watched after the last.
 */
export function judgeMaxAttempts(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const max = profile.webhooks.max_attempts;
  const n = run.attempts.length;
  const seen = describeAttempts(run.attempts, profile.headers.webhook_attempt);
  const watched = `${((run.watchedUntil - run.startedAt) / 1000).toFixed(0)} s`;
  if (n === 0) v.fail(`no event for booking ${run.subjectId} reached the receiver (watched ${watched})`, run.exchanges.booking);
  else if (n < max)
    v.fail(
      `a receiver answering ${run.plan} got only ${n} of ${max} attempts in ${watched} (${seen}): the event was not retried ${max - 1} times`,
      run.exchanges.booking,
    );
  else if (n > max)
    v.fail(
      `a receiver answering ${run.plan} got ${n} attempts (${seen}), more than ${max}: retried ${n - 1} times instead of ${max - 1}`,
      run.exchanges.booking,
    );
  return v.outcome(`a failing receiver got exactly ${max} attempts and none after them in ${watched}`, {
    attempts: n,
    watchedMs: run.watchedUntil - run.startedAt,
  });
}

/** WH-03: retried twice, never a fourth attempt. */
export const maxAttemptsCheck: Check = {
  id: 'WH-03',
  title: 'A failing delivery is retried exactly twice, never a fourth time',
  area: 'webhooks',
  clause: 'SPEC §6 and §8.7: outbound webhooks are retried twice',
  ...whScenarioUse('failing'),
  async run(ctx) {
    return judgeMaxAttempts(await whScenario(ctx, 'failing'), ctx.profile);
  },
};
