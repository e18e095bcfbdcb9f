import type { Profile } from '../../profile/index.js';
import { verifyServiceWebhookRequest } from '../../protocol/index.js';
import { runEvidence, whHeader, whSetupError, type WhRun } from '../_internal/wh-attempt.js';
import { whScenario, whScenarioUse } from '../_internal/wh-scenario.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WH-02 judges: the attempts of a failing delivery (so retries are signed too) and the agency's webhook secret. */
interface ServiceSignatureObservations {
  run: WhRun;
  secret: string | undefined;
}

/**
 * Judges WH-02: every attempt's signature verifies against its raw body, id
 * and timestamp with the agency's webhook secret (REFERENCE-API.md section 9),
 * the timestamp judged against the attempt's arrival time.
 */
export function judgeServiceSignatures(obs: ServiceSignatureObservations, profile: Profile): CheckOutcome {
  const { run } = obs;
  const setup = whSetupError(run);
  if (setup) return setup;
  if (obs.secret === undefined) return skipped('the profile gives no webhook secret for the primary agency (agencies[0].webhook_secret_env)');
  const v = new Findings().see(...runEvidence(run, 'booking'));
  const booking = run.exchanges.booking;
  if (run.attempts.length === 0) {
    v.fail(`no event for booking ${run.subjectId} reached the receiver, so no signature could be verified`, booking);
    return v.outcome('');
  }
  const h = profile.headers;
  const names = { id: h.webhook_id, timestamp: h.webhook_timestamp, signature: h.webhook_signature, attempt: h.webhook_attempt };
  for (const a of run.attempts) {
    const res = verifyServiceWebhookRequest({ headers: a.headers, body: a.text, secret: obs.secret, names, nowS: Math.floor(a.receivedAt / 1000) });
    if (!res.ok) {
      v.fail(
        `attempt ${whHeader(a, h.webhook_attempt) ?? '?'} of event ${whHeader(a, h.webhook_id) ?? '?'}: signature refused (${res.reason}), ${h.webhook_signature} ${JSON.stringify(whHeader(a, h.webhook_signature) ?? null)}`,
        booking,
      );
    }
  }
  return v.outcome(`all ${run.attempts.length} attempts carried a valid ${h.webhook_signature}`, { attempts: run.attempts.length });
}

/** WH-02: service webhooks are signed. */
export const serviceSignaturesCheck: Check = {
  id: 'WH-02',
  title: 'Every attempt of a service event carries a valid signature',
  area: 'webhooks',
  clause: 'SPEC §6: service events are signed',
  ...whScenarioUse('failing'),
  async run(ctx) {
    const run = await whScenario(ctx, 'failing');
    return judgeServiceSignatures({ run, secret: ctx.agencies[0]?.webhookSecret }, ctx.profile);
  },
};
