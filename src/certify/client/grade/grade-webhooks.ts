import { CLIENT_ITEMS } from '../client-plan.js';
import { notExercised, ok, type GradedItem } from '../_internal/facts.js';
import type { Observation, WebhookProbe } from '../observed.js';

function answer(p: WebhookProbe): string {
  return p.status === null ? `no answer (${p.error ?? 'nothing came back'})` : String(p.status);
}

/**
 * CC-08, CC-09, CC-10: what the client's webhook endpoint answered to the
 * probes: a duplicate must be acknowledged 2xx (both times), a forged
 * signature and a stale timestamp must each get a non-2xx answer.
 */
export function gradeWebhooks(observation: Observation): GradedItem[] {
  const items = [CLIENT_ITEMS.webhookDuplicate, CLIENT_ITEMS.webhookForged, CLIENT_ITEMS.webhookStale];
  if (observation.probes.length === 0) {
    const booked = observation.requests.some((r) => r.createdBooking);
    const why =
      observation.webhookUrl === undefined
        ? 'the client never registered its webhook endpoint (PUT /v1/webhook-endpoint)'
        : booked
          ? 'the probes were not sent'
          : 'the probes go out after the client first really books, and it never did';
    return items.map((item) => notExercised(item, why));
  }
  const find = (kind: WebhookProbe['kind']): WebhookProbe | undefined => observation.probes.find((p) => p.kind === kind);
  const first = find('duplicate-first');
  const second = find('duplicate-second');
  const forged = find('forged-signature');
  const stale = find('stale-timestamp');
  const out: GradedItem[] = [];

  const dup = CLIENT_ITEMS.webhookDuplicate;
  if (!first || !second) out.push(notExercised(dup, 'the duplicate was not sent'));
  else if (!ok(first.status)) {
    out.push({ item: dup, verdict: 'FAIL', message: `refused a correctly signed delivery: answered ${answer(first)}`, evidence: [first.id, second.id] });
  } else if (!ok(second.status)) {
    out.push({
      item: dup,
      verdict: 'FAIL',
      message: `answered the duplicate (same X-SVC-Webhook-Id) with ${answer(second)}; a duplicate must be acknowledged 2xx`,
      evidence: [first.id, second.id],
    });
  } else {
    out.push({
      item: dup,
      verdict: 'PASS',
      message: `acknowledged the delivery (${answer(first)}) and its duplicate (${answer(second)})`,
      evidence: [first.id, second.id],
    });
  }

  const refused = (item: (typeof items)[number], p: WebhookProbe | undefined, what: string): GradedItem => {
    if (!p) return notExercised(item, `the ${what} delivery was not sent`);
    if (p.status === null)
      return {
        item,
        verdict: 'FAIL',
        message: `the endpoint gave no answer to the ${what} delivery (${p.error ?? 'nothing came back'}): a refusal is a non-2xx answer`,
        evidence: [p.id],
      };
    if (ok(p.status)) return { item, verdict: 'FAIL', message: `accepted a delivery with a ${what}: answered ${p.status}`, evidence: [p.id] };
    return { item, verdict: 'PASS', message: `refused the delivery with a ${what}: answered ${p.status}`, evidence: [p.id] };
  };
  out.push(refused(CLIENT_ITEMS.webhookForged, forged, 'forged signature'));
  out.push(refused(CLIENT_ITEMS.webhookStale, stale, 'stale timestamp'));
  return out;
}
