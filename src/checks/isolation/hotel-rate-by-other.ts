import type { Profile } from '../../profile/index.js';
import type { ReceivedDelivery } from '../../receiver/index.js';
import { codeOf, describeAnswer, errorMismatch, isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { agencyName, ISOLATION_EPISODE } from '../_internal/isolation-steps.js';
import { mentions } from '../_internal/wh-attempt.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';

/** What IS-04 saw: another agency's booking with the owner's rate key, and, when it was booked, who could cancel it and where its events went. */
interface HotelRateByOtherObservations {
  otherBooking: Answer & { reference?: string };
  /** When the other agency got a booking: the owner's try to cancel it, then the other agency's own cancellation. */
  ownerCancel?: Answer;
  otherCancel?: Answer;
  /** Events naming that booking that reached the owner's hotel webhook (undefined: no receiver watched it). */
  ownerEvents?: ReceivedDelivery[];
  /** The owner's webhook registration, when one was made. */
  webhookSet?: Answer;
}

/**
 * Judges IS-04. The reference API does not say whether a rate key is bound to
 * the agency it was quoted to, so two answers are right: 404 NOT_FOUND (bound),
 * or a booking that is wholly the caller's own (public rate keys): its own
 * cancellation works, the owner cannot cancel it, and the owner's hotel
 * webhook hears nothing of it. A booking that lands on the owner's account,
 * or any other answer, is wrong.
 */
export function judgeHotelRateByOther(obs: HotelRateByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const nf = profile.errors.not_found;
  const b = obs.otherBooking;
  if (b.status === nf.status && codeOf(b, profile) === nf.code) {
    f.see(b);
    return f.outcome(`another agency's booking with the owner's rate key answered ${nf.status} ${nf.code}: rate keys are bound to their agency`);
  }
  if (!isSuccess(b)) {
    f.fail(
      `another agency's booking with the owner's rate key answered ${describeAnswer(b, profile)}, expected ${nf.status} ${nf.code} (a bound rate key) or a booking of its own (a public one)`,
      b,
    );
    return f.outcome('');
  }
  const ref = b.reference;
  if (
    !f.expect(
      ref !== undefined,
      `another agency's booking with the owner's rate key answered ${b.status} with no reference at ${profile.fields.hotel_reference}`,
      b,
    ) ||
    ref === undefined
  )
    return f.outcome('');
  f.see(b);
  if (obs.ownerCancel)
    f.check(
      errorMismatch(obs.ownerCancel, nf, `the owner's cancellation of hotel booking ${ref}, which another agency made with the owner's rate key`, profile),
      obs.ownerCancel,
      b,
    );
  if (obs.otherCancel) f.check(successMismatch(obs.otherCancel, `the booking agency's own cancellation of hotel booking ${ref}`, profile), obs.otherCancel, b);
  if (obs.webhookSet) f.see(obs.webhookSet);
  if (obs.ownerEvents)
    f.expect(
      obs.ownerEvents.length === 0,
      `the owner's hotel webhook received ${obs.ownerEvents.length} event(s) of hotel booking ${ref}, which another agency made`,
      b,
    );
  return f.outcome(
    `another agency's booking with the owner's rate key was wholly its own (${ref}: it cancelled it, the owner could not, and the owner heard nothing of it)`,
  );
}

/** Real time the owner's webhook is watched for an event it must not get, ms: the hotel API sends its one attempt at once. */
function watchMs(ctx: Pick<CheckContext, 'clock'>): number {
  return ctx.clock.kind === 'mock' ? 300 : 2_000;
}

/** IS-04: another agency's booking with a rate key never lands on the owner's account. */
export const hotelRateByOtherCheck: Check = {
  id: 'IS-04',
  title: "A booking with another agency's rate key is refused or wholly the caller's own",
  area: 'isolation',
  clause:
    "SPEC §5: the hotel API key is the agency's / REF §10: an unknown rate_key → 404 NOT_FOUND (whether a rate_key is bound to its agency is not said: a booking of the caller's own is right too)",
  needs: ['second-agency', 'hotel'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const owner = ctx.hotel(0);
    const other = ctx.hotel(1);
    if (!owner) return skipped('the profile has no hotel API');
    if (!other) return skipped(`the second agency ${agencyName(ctx, 1)} has no hotel API key`);
    const receiver = ctx.receiver;
    const path = `/wh/${ctx.unique('IS-04-owner-hotel').replace(/[^A-Za-z0-9_-]/g, '-')}`;
    const obs: Partial<HotelRateByOtherObservations> = {};
    const [webhookSet, availability] = await Promise.all([
      receiver ? owner.setWebhook(receiver.url + path, { label: ctx.label("the owner's hotel webhook, to watch") }) : undefined,
      owner.availability({ label: ctx.label("the owner's hotel availability") }),
    ]);
    const rateKey = availability.rateKeys[0];
    if (rateKey === undefined) return skipped(`hotel availability answered ${availability.status} with no rate to book`, availability);
    const otherBooking = await other.book(rateKey, {
      label: ctx.label("another agency's booking with the owner's rate key"),
      clientReference: ctx.unique('ref'),
    });
    const ref = otherBooking.reference;
    if (isSuccess(otherBooking) && ref !== undefined) {
      obs.ownerCancel = await owner.cancel(ref, { label: ctx.label("the owner's cancellation of that booking") });
      obs.otherCancel = await other.cancel(ref, { label: ctx.label("the booking agency's own cancellation") });
      if (receiver && webhookSet && isSuccess(webhookSet)) {
        obs.webhookSet = webhookSet;
        const match = (d: ReceivedDelivery): boolean => d.path === path && mentions(d.text, ref);
        await receiver.waitFor(match, watchMs(ctx));
        obs.ownerEvents = receiver.deliveries(match);
      }
    }
    return judgeHotelRateByOther({ ...obs, otherBooking }, ctx.profile);
  },
};
