import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { agencyName, ISOLATION_EPISODE } from '../_internal/isolation-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What IS-03 saw: the owner's hotel booking, another agency's cancellation of it, then the owner's. */
interface HotelBookingByOtherObservations {
  reference: string;
  otherCancel: Answer;
  ownerCancel: Answer;
}

/**
 * Judges IS-03: another agency's cancellation of a hotel booking is refused as
 * not found, and the booking stays the owner's and confirmed: its owner's own
 * cancellation succeeds (a cancelled booking would answer a conflict).
 */
export function judgeHotelBookingByOther(obs: HotelBookingByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const nf = profile.errors.not_found;
  f.check(errorMismatch(obs.otherCancel, nf, `another agency's cancellation of hotel booking ${obs.reference}`, profile), obs.otherCancel);
  f.check(successMismatch(obs.ownerCancel, `the owner's own cancellation of hotel booking ${obs.reference} after that`, profile), obs.ownerCancel);
  return f.outcome(
    `another agency's cancellation of hotel booking ${obs.reference} answered ${nf.status} ${nf.code}; the owner's booking stayed confirmed and its owner cancelled it`,
  );
}

/** IS-03: another agency cannot cancel a hotel booking. */
export const hotelBookingByOtherCheck: Check = {
  id: 'IS-03',
  title: "Another agency's hotel booking cannot be cancelled",
  area: 'isolation',
  clause: "SPEC §5: the hotel API key is the agency's / REF §10: an unknown reference → 404 NOT_FOUND (REF §4: another agency's booking is unknown to it)",
  needs: ['second-agency', 'hotel'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const owner = ctx.hotel(0);
    const other = ctx.hotel(1);
    if (!owner) return skipped('the profile has no hotel API');
    if (!other) return skipped(`the second agency ${agencyName(ctx, 1)} has no hotel API key`);
    const availability = await owner.availability({ label: ctx.label("the owner's hotel availability") });
    const rateKey = availability.rateKeys[0];
    if (rateKey === undefined) return skipped(`hotel availability answered ${availability.status} with no rate to book`, availability);
    const booking = await owner.book(rateKey, { label: ctx.label("the owner's hotel booking"), clientReference: ctx.unique('ref') });
    const reference = booking.reference;
    if (reference === undefined) return skipped(`the owner's hotel booking answered ${booking.status} with no reference: nothing to try`, booking);
    const otherCancel = await other.cancel(reference, { label: ctx.label("another agency's cancellation of the hotel booking") });
    const ownerCancel = await owner.cancel(reference, { label: ctx.label("the owner's cancellation of its hotel booking") });
    return judgeHotelBookingByOther({ reference, otherCancel, ownerCancel }, ctx.profile);
  },
};
