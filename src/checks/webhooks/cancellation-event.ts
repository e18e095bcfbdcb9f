import type { Profile } from '../../profile/index.js';
import { runEvidence, whEvent, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-08 on a booking then its cancellation: one cancelled event that
 * names the booking, as an event of its own (not the confirmed event's id).
 */
export function judgeCancellationEvent(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'cancellation', 'booking'));
  const h = profile.headers;
  const typed = run.attempts.map((a) => ({ a, ev: whEvent(a, profile), id: whHeader(a, h.webhook_id) }));
  const cancelled = typed.filter((t) => t.ev.type === profile.webhooks.event_booking_cancelled);
  const confirmed = typed.filter((t) => t.ev.type === profile.webhooks.event_booking_confirmed);
  if (cancelled.length === 0) {
    const types = [...new Set(typed.map((t) => JSON.stringify(t.ev.type)))].join(', ') || 'none';
    v.fail(
      `cancelling booking ${run.subjectId} emitted no ${profile.webhooks.event_booking_cancelled} event naming it (event types seen for it: ${types})`,
      run.exchanges.cancellation,
    );
  } else {
    const ids = new Set(cancelled.map((t) => t.id));
    if (ids.size > 1)
      v.fail(`cancelling booking ${run.subjectId} emitted ${ids.size} ${profile.webhooks.event_booking_cancelled} events`, run.exchanges.cancellation);
    const confirmedIds = new Set(confirmed.map((t) => t.id));
    if (cancelled.some((t) => t.id !== undefined && confirmedIds.has(t.id))) {
      v.fail(`the cancelled event reuses the confirmed event's ${h.webhook_id}: receivers dropping duplicates would lose it`, run.exchanges.cancellation);
    }
  }
  return v.outcome(`cancelling booking ${run.subjectId} emitted a ${profile.webhooks.event_booking_cancelled} event`, { attempts: run.attempts.length });
}

/** WH-08: a cancellation emits the cancelled event. */
export const cancellationEventCheck: Check = {
  id: 'WH-08',
  title: 'A cancellation emits the booking-cancelled event',
  area: 'webhooks',
  clause: 'SPEC §6: the service sends outbound webhook events (REFERENCE-API §9: booking.cancelled)',
  ...whScenarioUse('cancel'),
  async run(ctx) {
    return judgeCancellationEvent(await whScenario(ctx, 'cancel'), ctx.profile);
  },
};
