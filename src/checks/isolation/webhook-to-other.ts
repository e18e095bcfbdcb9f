import { getField } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import type { ReceivedDelivery } from '../../receiver/index.js';
import { bookFresh, cancelFresh } from '../_internal/booking-steps.js';
import { isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { cheapest, productsToSearch, retryRateLimited, searchProduct } from '../_internal/flow-steps.js';
import { mentions } from '../_internal/wh-attempt.js';
import { ISOLATION_EPISODE } from '../_internal/isolation-steps.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';

/** What IS-06 saw: both endpoints registered on the receiver, the owner's booking and cancellation, and the deliveries at each path. */
interface WebhookToOtherObservations {
  bookingId: string;
  registrations: Answer[];
  booking: Answer;
  cancellation: Answer;
  /** Deliveries naming the booking at the owner's path, and at the other agency's. */
  ownerEvents: ReceivedDelivery[];
  otherEvents: ReceivedDelivery[];
  watchedMs: number;
}

/**
 * Judges IS-06: the owner's events reach the owner's endpoint and never the
 * other agency's. No event at the owner's either proves nothing: a WARN.
 */
export function judgeWebhookToOther(obs: WebhookToOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const r of obs.registrations) f.check(successMismatch(r, 'registering a webhook endpoint on the receiver', profile), r);
  f.see(obs.booking, obs.cancellation);
  f.expect(
    obs.otherEvents.length === 0,
    `${obs.otherEvents.length} delivery(ies) of the owner's events for booking ${obs.bookingId} reached another agency's endpoint (event ids: ${[
      ...new Set(obs.otherEvents.map((d) => d.headers[profile.headers.webhook_id.toLowerCase()] ?? '?')),
    ].join(', ')})`,
    obs.booking,
    obs.cancellation,
  );
  if (!f.failed && obs.ownerEvents.length === 0)
    f.warn(`the owner's endpoint received no event of booking ${obs.bookingId} within ${obs.watchedMs} ms: nothing shows where its events go`, obs.booking);
  return f.outcome(
    `the owner's ${obs.ownerEvents.length} event delivery(ies) for booking ${obs.bookingId} reached its own endpoint and none reached another agency's`,
  );
}

/** Real time to wait for the owner's events, and for a stray one at the other endpoint, ms. */
function watchMs(ctx: CheckContext): { first: number; stray: number } {
  return ctx.clock.kind === 'mock' ? { first: 3_000, stray: 150 } : { first: ctx.profile.webhooks.delivery_timeout_ms + 5_000, stray: 2_000 };
}

/** A stray event is still watched for this long after the owner's last came, ms. */
const STRAY_AFTER_OWNER_MS = 50;

function receiverPath(ctx: CheckContext, who: string): string {
  return `/wh/${ctx.unique(`${ctx.checkId}-${who}`).replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** IS-06: an agency's events never reach another agency's endpoint. */
export const webhookToOtherCheck: Check = {
  id: 'IS-06',
  title: "An agency's webhook events never reach another agency's endpoint",
  area: 'isolation',
  clause: 'SPEC §6: the service sends outbound webhook events / REF §9: one endpoint per agency',
  needs: ['second-agency', 'receiver', 'open-product'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const receiver = ctx.receiver;
    if (!receiver) return skipped('no webhook receiver reachable by the target');
    const [owner, other] = [ctx.api(0), ctx.api(1)];
    const product = (await productsToSearch(ctx, 0))[0];
    if (product === undefined) return skipped('the owner has no open product with search criteria in the profile');
    const [ownerPath, otherPath] = [receiverPath(ctx, 'owner'), receiverPath(ctx, 'other')];
    const [ownerOld, otherOld, search] = await Promise.all([
      retryRateLimited(ctx, () => owner.getWebhookEndpoint({ label: ctx.label("the owner's webhook endpoint, to restore") })),
      retryRateLimited(ctx, () => other.getWebhookEndpoint({ label: ctx.label("the other agency's webhook endpoint, to restore") })),
      searchProduct(ctx, owner, product, `search ${product}`),
    ]);
    const registrations = await Promise.all([
      retryRateLimited(ctx, () => owner.setWebhookEndpoint(receiver.url + ownerPath, { label: ctx.label("the owner's endpoint on the receiver") })),
      retryRateLimited(ctx, () => other.setWebhookEndpoint(receiver.url + otherPath, { label: ctx.label("the other agency's endpoint on the receiver") })),
    ]);
    try {
      if (!registrations.every(isSuccess)) return judgeWebhookToOther(noBooking(registrations), ctx.profile);
      const offer = cheapest(search.offers);
      if (!offer) return skipped(`a search of ${product} gave no offer to book`, search);
      const booking = await bookFresh(ctx, owner, product, offer.quoteToken, "the owner's booking (emits an event)");
      const bookingId = booking.bookingId;
      if (!isSuccess(booking) || bookingId === undefined)
        return skipped(`the owner's booking answered ${booking.status} with no booking id: no event to follow`, booking);
      const cancellation = await cancelFresh(ctx, owner, product, bookingId, "the owner's cancellation (emits an event)");
      const at = (path: string) => (d: ReceivedDelivery) => d.path === path && mentions(d.text, bookingId);
      const ms = watchMs(ctx);
      // Events to every endpoint go out together: the watch for a stray one runs beside the wait for the owner's, and a little past it.
      const strayUntil = ctx.clock.now() + ms.stray;
      await Promise.all([receiver.waitFor(at(ownerPath), ms.first, isSuccess(cancellation) ? 2 : 1), receiver.waitFor(at(otherPath), ms.stray)]);
      const late = Math.max(STRAY_AFTER_OWNER_MS, strayUntil - ctx.clock.now());
      if (receiver.deliveries(at(otherPath)).length === 0) await receiver.waitFor(at(otherPath), Math.min(late, ms.stray));
      return judgeWebhookToOther(
        {
          bookingId,
          registrations,
          booking,
          cancellation,
          ownerEvents: receiver.deliveries(at(ownerPath)),
          otherEvents: receiver.deliveries(at(otherPath)),
          watchedMs: ms.first,
        },
        ctx.profile,
      );
    } finally {
      // Endpoints that were set before go back; one that was not set cannot be cleared through the API.
      const back = [
        [owner, getField(ownerOld.json, ctx.profile.fields.webhook_endpoint_url)],
        [other, getField(otherOld.json, ctx.profile.fields.webhook_endpoint_url)],
      ] as const;
      await Promise.all(
        back.map(([api, old]) =>
          typeof old === 'string' && old !== '' ? api.setWebhookEndpoint(old, { label: ctx.label('restore the webhook endpoint') }) : undefined,
        ),
      );
    }
  },
};

/** Observations when the endpoints could not be registered: the registrations alone are judged. */
function noBooking(registrations: Answer[]): WebhookToOtherObservations {
  const r = registrations[0]!;
  return { bookingId: '', registrations, booking: r, cancellation: r, ownerEvents: [], otherEvents: [], watchedMs: 0 };
}
