import { getString } from '../../../api/fields.js';
import { uniqueClientReference } from '../../../api/target-api.js';
import type { ReceivedDelivery } from '../../../receiver/index.js';
import { verifyServiceWebhookRequest } from '../../../protocol/index.js';
import { Findings, skipped } from '../../../checks/findings.js';
import { describe, isOk } from '../_internal/answers.js';
import { bookableProducts, cancelBooking, freshKey, searchOffer } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** Extra real time beyond the profile's delivery timeout that the test waits for the first attempt. */
const DELIVERY_GRACE_MS = 10_000;

function eventOf(d: ReceivedDelivery): unknown {
  try {
    return JSON.parse(d.text) as unknown;
  } catch {
    return undefined;
  }
}

/** CERT-06: a booking's event reaches the harness's receiver, signed with the agency's webhook secret. */
export const webhookDeliveryCheck: PlanCheck = {
  id: 'CERT-06',
  area: 'webhooks',
  title: "A booking's webhook event reaches the harness's receiver, correctly signed",
  clause: 'SPEC §6 outbound webhook events are signed and identified by X-SVC-Webhook-Id',
  required: true,
  async run(ctx) {
    const { profile, api, receiver, agency } = ctx;
    if (!receiver) return skipped(`not run: ${ctx.receiverMissing ?? 'no webhook receiver'}`);
    if (!agency.webhookSecret) return skipped(`not run: the profile gives no webhook secret for ${agency.id} (agencies[].webhook_secret_env)`);
    const f = new Findings();
    const product = (await bookableProducts(ctx))[0];
    if (product === undefined) {
      f.fail('no open product to book');
      return f.outcome('');
    }
    if (ctx.state.originalWebhookUrl === undefined) {
      const current = await api.getWebhookEndpoint({ label: ctx.label('webhook endpoint before') });
      ctx.state.originalWebhookUrl = isOk(current) ? (getString(current.json, profile.fields.webhook_endpoint_url) ?? null) : null;
    }
    const path = `/certify/${ctx.unique('wh-')}`;
    const url = receiver.url.replace(/\/+$/, '') + path;
    const put = await api.setWebhookEndpoint(url, { label: ctx.label('register the receiver') });
    if (!f.expect(isOk(put), `registering the webhook endpoint answered ${describe(put, profile)}, expected 2xx`, put)) return f.outcome('');
    ctx.state.registeredWebhookUrl = url;

    const { offer } = await searchOffer(ctx, f, product, `${product}: search`);
    if (!offer) return f.outcome('');
    const book = await api.book(product, offer.quoteToken, freshKey(ctx, 'wh'), {
      label: ctx.label(`${product}: book`),
      clientReference: uniqueClientReference(),
    });
    if (!f.expect(isOk(book) && book.bookingId !== undefined, `booking ${product} answered ${describe(book, profile)}, expected 2xx with a booking id`, book))
      return f.outcome('');
    const bookingId = book.bookingId!;
    const fields = profile.fields;
    const confirmed = (d: ReceivedDelivery): boolean => {
      const ev = eventOf(d);
      return (
        d.path === path && getString(ev, fields.event_type) === profile.webhooks.event_booking_confirmed && getString(ev, fields.event_booking_id) === bookingId
      );
    };
    const found = await receiver.waitFor(confirmed, profile.webhooks.delivery_timeout_ms + DELIVERY_GRACE_MS);
    const all = receiver.deliveries({ path });
    ctx.attach(
      'deliveries',
      all.map((d) => ({
        seq: d.seq,
        method: d.method,
        path: d.path,
        headers: d.headers,
        body: d.text,
        receivedAt: new Date(d.receivedAt).toISOString(),
        answered: d.status,
      })),
    );
    const cancel = await cancelBooking(ctx, product, bookingId, `${product}: cancel (refund)`);
    f.expect(isOk(cancel), `cancelling the booking answered ${describe(cancel, profile)}, expected 2xx`, cancel);

    const first = found[0];
    if (
      !f.expect(
        first !== undefined,
        `no ${profile.webhooks.event_booking_confirmed} event for booking ${bookingId} reached ${url} (${all.length} other deliveries)`,
      )
    )
      return f.outcome('');
    const h = profile.headers;
    const verdict = verifyServiceWebhookRequest({
      headers: first!.headers,
      body: first!.body,
      secret: agency.webhookSecret,
      names: { id: h.webhook_id, timestamp: h.webhook_timestamp, signature: h.webhook_signature, attempt: h.webhook_attempt },
      nowS: Math.floor(first!.receivedAt / 1000),
    });
    f.expect(verdict.ok, `the ${profile.webhooks.event_booking_confirmed} event is not correctly signed: ${verdict.ok ? '' : verdict.reason}`);
    const id = first!.headers[h.webhook_id.toLowerCase()];
    return f.outcome(
      `event ${typeof id === 'string' ? id : '?'} (${profile.webhooks.event_booking_confirmed} of ${bookingId}) arrived signed with the agency's webhook secret`,
    );
  },
};
