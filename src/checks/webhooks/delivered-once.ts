import type { Profile } from '../../profile/index.js';
import { describeAttempts, runEvidence, whEvent, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-01 on a run against a receiver that answers 200: exactly one
 * attempt, numbered 1, carrying the booking-confirmed event of that booking.
 */
export function judgeDeliveredOnce(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const booking = run.exchanges.booking;
  const h = profile.headers;
  if (run.attempts.length === 0) {
    v.fail(`no event for booking ${run.subjectId} reached the receiver (watched ${((run.watchedUntil - run.startedAt) / 1000).toFixed(0)} s)`, booking);
    return v.outcome('');
  }
  if (run.attempts.length > 1) {
    v.fail(
      `a receiver answering 200 got ${run.attempts.length} attempts for booking ${run.subjectId} (${describeAttempts(run.attempts, h.webhook_attempt)}): a delivered event was sent again`,
      booking,
    );
  }
  const a = run.attempts[0]!;
  const ev = whEvent(a, profile);
  if (ev.type !== profile.webhooks.event_booking_confirmed) {
    v.fail(
      `the event type at ${profile.fields.event_type} is ${JSON.stringify(ev.type)}, not ${JSON.stringify(profile.webhooks.event_booking_confirmed)}`,
      booking,
    );
  }
  if (ev.bookingId !== run.subjectId) {
    v.fail(`the event names booking ${JSON.stringify(ev.bookingId)} at ${profile.fields.event_booking_id}, not ${run.subjectId}`, booking);
  }
  const n = whHeader(a, h.webhook_attempt);
  if (n?.trim() !== '1') v.fail(`the first attempt carries ${h.webhook_attempt} ${JSON.stringify(n ?? null)}, not 1`, booking);
  if (whHeader(a, h.webhook_id) === undefined) v.fail(`the attempt carries no ${h.webhook_id}`, booking);
  return v.outcome(`booking ${run.subjectId} emitted one ${profile.webhooks.event_booking_confirmed} event, delivered in one attempt`, {
    attempts: run.attempts.length,
    path: run.path,
  });
}

/** WH-01: one event per booking, delivered once to a healthy receiver. */
export const deliveredOnceCheck: Check = {
  id: 'WH-01',
  title: 'A booking emits its confirmed event, delivered once to a receiver that accepts it',
  area: 'webhooks',
  clause: 'SPEC §6: the service sends outbound webhook events',
  ...whScenarioUse('healthy'),
  async run(ctx) {
    return judgeDeliveredOnce(await whScenario(ctx, 'healthy'), ctx.profile);
  },
};
