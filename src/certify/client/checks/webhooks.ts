import { Findings } from '../../../checks/findings.js';
import type { CheckOutcome } from '../../../checks/types.js';
import type { ClientCheck, ClientObservation } from '../client-check.js';
import { notExercised, ok } from '../_internal/facts.js';
import type { WebhookProbe } from '../observed.js';

function answer(p: WebhookProbe): string {
  return p.status === null ? `no answer (${p.error ?? 'nothing came back'})` : String(p.status);
}

/** Why no probe was sent at all, or undefined when some were. */
function notProbed(o: ClientObservation): string | undefined {
  if (o.probes.length > 0) return undefined;
  if (o.webhookUrl === undefined) return 'the client never registered its webhook endpoint (PUT /v1/webhook-endpoint)';
  return o.mine.some((r) => r.createdBooking) ? 'the probes were not sent' : 'the probes go out after the client first really books, and it never did';
}

const find = (o: ClientObservation, kind: WebhookProbe['kind']): WebhookProbe | undefined => o.probes.find((p) => p.kind === kind);

/** CC-08: what the client's webhook endpoint answered to a delivery and its duplicate: both must be acknowledged 2xx. */
export const webhookDuplicateCheck: ClientCheck = {
  id: 'CC-08',
  slug: 'webhook-duplicate',
  title: 'a duplicate webhook delivery (same X-SVC-Webhook-Id) is acknowledged 2xx',
  area: 'webhooks',
  clause: 'SPEC §6 deduplication',
  run(o) {
    const why = notProbed(o);
    if (why) return notExercised(why);
    const first = find(o, 'duplicate-first');
    const second = find(o, 'duplicate-second');
    if (!first || !second) return notExercised('the duplicate was not sent');
    const f = new Findings().see(first, second);
    if (!ok(first.status)) f.fail(`refused a correctly signed delivery: answered ${answer(first)}`);
    else if (!ok(second.status)) f.fail(`answered the duplicate (same X-SVC-Webhook-Id) with ${answer(second)}; a duplicate must be acknowledged 2xx`);
    return f.outcome(`acknowledged the delivery (${answer(first)}) and its duplicate (${answer(second)})`);
  },
};

/** What the endpoint answered to a delivery it must refuse: any non-2xx answer is a refusal, no answer is not. */
function judgeRefused(o: ClientObservation, kind: WebhookProbe['kind'], what: string): CheckOutcome {
  const why = notProbed(o);
  if (why) return notExercised(why);
  const p = find(o, kind);
  if (!p) return notExercised(`the ${what} delivery was not sent`);
  const f = new Findings().see(p);
  if (p.status === null) f.fail(`the endpoint gave no answer to the ${what} delivery (${p.error ?? 'nothing came back'}): a refusal is a non-2xx answer`);
  else if (ok(p.status)) f.fail(`accepted a delivery with a ${what}: answered ${p.status}`);
  return f.outcome(`refused the delivery with a ${what}: answered ${p.status}`);
}

/** CC-09: a delivery with a forged signature must get a non-2xx answer. */
export const webhookForgedCheck: ClientCheck = {
  id: 'CC-09',
  slug: 'webhook-forged',
  title: 'a webhook delivery with a forged signature is refused',
  area: 'webhooks',
  clause: 'SPEC §6 signed events',
  run: (o) => judgeRefused(o, 'forged-signature', 'forged signature'),
};

/** CC-10: a delivery with a stale timestamp must get a non-2xx answer. */
export const webhookStaleCheck: ClientCheck = {
  id: 'CC-10',
  slug: 'webhook-stale',
  title: 'a webhook delivery with a stale timestamp (beyond 300 s) is refused',
  area: 'webhooks',
  clause: 'SPEC §6 signed events',
  run: (o) => judgeRefused(o, 'stale-timestamp', 'stale timestamp'),
};
