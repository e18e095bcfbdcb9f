import type { Profile } from '../../profile/index.js';
import { bookFresh, cancelFresh } from '../_internal/booking-steps.js';
import { errorMismatch, isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { retryRateLimited } from '../_internal/flow-steps.js';
import { bothWallets, type BothWallets, ISOLATION_EPISODE, judgeBothWallets, ownerOffer } from '../_internal/isolation-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What IS-01 saw: the owner's booking, the other agency's read and cancellation of it, then the owner's cancellation. */
interface BookingByOtherObservations {
  bookingId: string;
  price: number | undefined;
  before: BothWallets;
  otherRead: Answer;
  otherCancel: Answer;
  ownerCancel: Answer;
  after: BothWallets;
}

/**
 * Judges IS-01: another agency's read and cancellation of a booking are both
 * refused as not found, the booking is still the owner's and still confirmed
 * (its owner cancels it for the full price: a cancelled booking would answer
 * a conflict), and neither wallet moved but by the owner's own booking and
 * its one refund.
 */
export function judgeBookingByOther(obs: BookingByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const nf = profile.errors.not_found;
  const id = obs.bookingId;
  f.check(errorMismatch(obs.otherRead, nf, `another agency's read of booking ${id}`, profile), obs.otherRead);
  f.check(errorMismatch(obs.otherCancel, nf, `another agency's cancellation of booking ${id}`, profile), obs.otherCancel);
  f.check(
    successMismatch(obs.ownerCancel, `after another agency's cancellation, the owner's own cancellation of booking ${id}`, profile),
    obs.ownerCancel,
    obs.otherCancel,
  );
  judgeBothWallets(f, obs.before, obs.after, [{ bookingId: id, amount: obs.price, refunded: isSuccess(obs.ownerCancel) }], [], profile);
  return f.outcome(
    `another agency's read and cancellation of booking ${id} answered ${nf.status} ${nf.code}; the booking stayed the owner's and confirmed (its owner cancelled it), and no wallet moved but by the owner's own booking and refund`,
  );
}

/** IS-01: another agency can neither read nor cancel a booking. */
export const bookingByOtherCheck: Check = {
  id: 'IS-01',
  title: "Another agency's booking can be neither read nor cancelled",
  area: 'isolation',
  clause: "SPEC §5: the wallet belongs to the agency / REF §4: another agency's booking id → 404 NOT_FOUND",
  needs: ['second-agency', 'open-product'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const start = await ownerOffer(ctx);
    if (!('offer' in start)) return start;
    const { product, owner, other, offer, before } = start;
    const booking = await bookFresh(ctx, owner, product, offer.quoteToken, "the owner's booking");
    const bookingId = booking.bookingId;
    if (!isSuccess(booking) || bookingId === undefined)
      return skipped(`the owner's booking answered ${booking.status} with no booking id: nothing to try`, booking);
    // Both tries at once: a correct service refuses each alone, whatever the other did.
    const [otherRead, otherCancel] = await Promise.all([
      retryRateLimited(ctx, () => other.getBooking(product, bookingId, { label: ctx.label("another agency's read of the booking") })),
      cancelFresh(ctx, other, product, bookingId, "another agency's cancellation of the booking"),
    ]);
    const ownerCancel = await cancelFresh(ctx, owner, product, bookingId, "the owner's cancellation of its booking");
    const after = await bothWallets(ctx, 'after');
    return judgeBookingByOther(
      { bookingId, price: booking.chargedAmount ?? offer.priceAmount, before, otherRead, otherCancel, ownerCancel, after },
      ctx.profile,
    );
  },
};
