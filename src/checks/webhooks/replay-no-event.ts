import type { Profile } from '../../profile/index.js';
import { describeAttempts, runEvidence, whEvent, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { errored, Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-07 on a booking replayed with the same Idempotency-Key and body
 * (receiver answering 200): exactly one event, in one attempt, for that booking.
 */
export function judgeReplayNoEvent(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'replay', 'booking'));
  const h = profile.headers;
  if (run.exchanges.replay === undefined) return errored('the replay was not sent', ...run.exchangeIds);
  if (run.attempts.length === 0) {
    v.fail(`no event for booking ${run.subjectId} reached the receiver at all`, run.exchanges.booking);
    return v.outcome('');
  }
  const events = new Set(run.attempts.map((a) => whHeader(a, h.webhook_id) ?? String(whEvent(a, profile).id)));
  if (events.size > 1 || run.attempts.length > 1) {
    v.fail(
      `booking ${run.subjectId} and its idempotent replay gave ${events.size} event(s) in ${run.attempts.length} attempts (${describeAttempts(run.attempts, h.webhook_attempt)}): the replay emitted an event`,
      run.exchanges.replay,
      run.exchanges.booking,
    );
  }
  return v.outcome(`the replay of booking ${run.subjectId} emitted no event: one event, one attempt`, { events: events.size, attempts: run.attempts.length });
}

/** WH-07: an idempotent replay emits nothing. */
export const replayNoEventCheck: Check = {
  id: 'WH-07',
  title: 'An idempotent replay of a booking emits no second event',
  area: 'webhooks',
  clause: 'SPEC §4: the same Idempotency-Key with the same body replays the original response; a retried request cannot book twice',
  ...whScenarioUse('replay'),
  async run(ctx) {
    return judgeReplayNoEvent(await whScenario(ctx, 'replay'), ctx.profile);
  },
};
