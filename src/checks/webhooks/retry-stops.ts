import type { Profile } from '../../profile/index.js';
import { describeAttempts, runEvidence, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-06 on a receiver that fails once then accepts: exactly two
 * attempts (the retry came and, once delivered, nothing more), with one id.
 */
export function judgeRetryStops(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const booking = run.exchanges.booking;
  const n = run.attempts.length;
  const seen = describeAttempts(run.attempts, profile.headers.webhook_attempt);
  if (n === 0) v.fail(`no event for booking ${run.subjectId} reached the receiver`, booking);
  else if (n === 1) v.fail(`a receiver answering ${run.plan} got one attempt (${seen}): the failed attempt was never retried`, booking);
  else if (n > 2) v.fail(`a receiver answering ${run.plan} got ${n} attempts (${seen}): retries went on after the event was delivered`, booking);
  else {
    const ids = new Set(run.attempts.map((a) => whHeader(a, profile.headers.webhook_id)));
    if (ids.size !== 1) v.fail(`the retry carried another ${profile.headers.webhook_id} than the first attempt`, booking);
  }
  return v.outcome(`a receiver that failed once got exactly one retry (${seen})`, { attempts: n });
}

/** WH-06: one failure, one retry, then done. */
export const retryStopsCheck: Check = {
  id: 'WH-06',
  title: 'A delivery that fails once is retried once and then left alone',
  area: 'webhooks',
  clause: 'SPEC §6: retried twice with exponential backoff (retries stop once delivered)',
  ...whScenarioUse('fail-once'),
  async run(ctx) {
    return judgeRetryStops(await whScenario(ctx, 'fail-once'), ctx.profile);
  },
};
