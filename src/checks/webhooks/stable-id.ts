import type { Profile } from '../../profile/index.js';
import { runEvidence, whEvent, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/**
 * Judges WH-04 on a failing delivery: every attempt carries the same
 * webhook-id header, equal to the event id in the body, and the attempt
 * header counts 1, 2, 3 in order.
 */
export function judgeStableId(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const booking = run.exchanges.booking;
  const h = profile.headers;
  if (run.attempts.length < 2) {
    v.warn(`only ${run.attempts.length} attempt(s) reached a receiver answering ${run.plan}, so the id of retries could not be compared (see WH-03)`);
    return v.outcome('');
  }
  const ids = run.attempts.map((a) => whHeader(a, h.webhook_id));
  const distinct = [...new Set(ids)];
  if (ids.some((id) => id === undefined)) v.fail(`an attempt carries no ${h.webhook_id}`, booking);
  if (distinct.length > 1) {
    v.fail(
      `the ${run.attempts.length} attempts of one event carried ${distinct.length} different ${h.webhook_id} values (${distinct.join(', ')}): receivers cannot drop duplicates`,
      booking,
    );
  }
  run.attempts.forEach((a, i) => {
    const bodyId = whEvent(a, profile).id;
    const id = whHeader(a, h.webhook_id);
    if (id !== undefined && bodyId !== undefined && bodyId !== id)
      v.fail(`attempt ${i + 1}: ${h.webhook_id} ${id} differs from the body's event id ${JSON.stringify(bodyId)}`, booking);
    const n = whHeader(a, h.webhook_attempt)?.trim();
    if (n !== String(i + 1)) v.fail(`attempt ${i + 1} carries ${h.webhook_attempt} ${JSON.stringify(n ?? null)}, not ${i + 1}`, booking);
  });
  return v.outcome(`all ${run.attempts.length} attempts carried ${h.webhook_id} ${distinct[0]} and were numbered 1 to ${run.attempts.length}`, {
    ids: distinct,
  });
}

/** WH-04: one id per event across attempts; attempts numbered. */
export const stableIdCheck: Check = {
  id: 'WH-04',
  title: 'Every attempt of an event carries the same webhook id and its attempt number',
  area: 'webhooks',
  clause: 'SPEC §6: header X-SVC-Webhook-Id identifies a delivery; receivers can use it to drop duplicates',
  ...whScenarioUse('failing'),
  async run(ctx) {
    return judgeStableId(await whScenario(ctx, 'failing'), ctx.profile);
  },
};
