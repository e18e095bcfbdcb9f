import type { Profile } from '../../profile/index.js';
import { verifyHotelWebhookRequest } from '../../protocol/index.js';
import { runEvidence, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WH-09 judges: a hotel booking's event attempts and the agency's hotel webhook secret. */
interface HotelSignatureObservations {
  run: WhRun;
  secret: string | undefined;
}

/** Judges WH-09: every hotel event attempt carries a valid `t=…,v1=…` signature under the hotel webhook secret. */
export function judgeHotelSignatures(obs: HotelSignatureObservations, profile: Profile): CheckOutcome {
  const { run } = obs;
  const setup = whSetupError(run);
  if (setup) return setup;
  if (obs.secret === undefined) return skipped('the profile gives no hotel webhook secret for the primary agency (agencies[0].hotel_webhook_secret_env)');
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const name = profile.headers.hotel_webhook_signature;
  if (run.attempts.length === 0) {
    v.fail(`no event for hotel booking ${run.subjectId} reached the receiver`, run.exchanges.booking);
    return v.outcome('');
  }
  run.attempts.forEach((a, i) => {
    const res = verifyHotelWebhookRequest({ headers: a.headers, body: a.text, secret: obs.secret!, headerName: name, nowS: Math.floor(a.receivedAt / 1000) });
    if (!res.ok)
      v.fail(`hotel event attempt ${i + 1}: signature refused (${res.reason}), ${name} ${JSON.stringify(whHeader(a, name) ?? null)}`, run.exchanges.booking);
  });
  return v.outcome(`the hotel event carried a valid ${name}`, { attempts: run.attempts.length });
}

/** Judges WH-10: a hotel event gets exactly `webhooks.hotel_attempts` attempts, even to a receiver that fails, however long it is watched. */
export function judgeHotelAttempts(run: WhRun, profile: Profile): CheckOutcome {
  const setup = whSetupError(run);
  if (setup) return setup;
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const want = profile.webhooks.hotel_attempts;
  const n = run.attempts.length;
  const watched = `${((run.watchedUntil - run.startedAt) / 1000).toFixed(0)} s`;
  if (n === 0) v.fail(`no event for hotel booking ${run.subjectId} reached the receiver (watched ${watched})`, run.exchanges.booking);
  else if (n > want) {
    const at = run.attempts.map((a) => `+${((a.receivedAt - run.attempts[0]!.receivedAt) / 1000).toFixed(1)}s`).join(', ');
    v.fail(`a receiver answering ${run.plan} got ${n} attempts of one hotel event (${at}), the hotel API must make ${want}: it retried`, run.exchanges.booking);
  } else if (n < want) v.fail(`a receiver answering ${run.plan} got ${n} attempts of one hotel event, expected ${want}`, run.exchanges.booking);
  return v.outcome(`the hotel event was sent ${want === 1 ? 'once' : `${want} times`} to a failing receiver and never again in ${watched}`, { attempts: n });
}

/** WH-09: hotel events are signed. */
export const hotelSignatureCheck: Check = {
  id: 'WH-09',
  title: 'Hotel API events carry a valid X-Webhook-Signature',
  area: 'webhooks',
  clause: 'SPEC §6: hotel API events are signed, header X-Webhook-Signature',
  ...whScenarioUse('hotel-failing'),
  async run(ctx) {
    const run = await whScenario(ctx, 'hotel-failing');
    return judgeHotelSignatures({ run, secret: ctx.agencies[0]?.hotelWebhookSecret }, ctx.profile);
  },
};

/** WH-10: hotel events are never retried. */
export const hotelSingleAttemptCheck: Check = {
  id: 'WH-10',
  title: 'Hotel API events are never retried, even when the receiver fails',
  area: 'webhooks',
  clause: 'SPEC §6: hotel API events: no retries',
  ...whScenarioUse('hotel-failing'),
  async run(ctx) {
    return judgeHotelAttempts(await whScenario(ctx, 'hotel-failing'), ctx.profile);
  },
};
