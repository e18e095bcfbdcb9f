import { getField } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { bookFresh, cancelFresh } from '../_internal/booking-steps.js';
import { errorMismatch, isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../_internal/findings.js';
import { cheapest, retryRateLimited, searchProduct } from '../_internal/flow-steps.js';
import { bothWallets, judgeBothWallets, sharedProduct, type BothWallets } from '../_internal/isolation-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What IS-01 saw: the owner's booking, the other agency's read and cancellation of it, then the owner's read and cancellation. */
interface BookingByOtherObservations {
  bookingId: string;
  price: number | undefined;
  before: BothWallets;
  otherRead: Answer;
  otherCancel: Answer;
  ownerRead: Answer;
  ownerCancel: Answer;
  after: BothWallets;
}

/**
 * Judges IS-01: another agency's read and cancellation of a booking are both
 * refused as not found, the booking is still the owner's and still confirmed
 * (its owner reads it and cancels it for the full price), and neither wallet
 * moved but by the owner's own booking and refund.
 */
export function judgeBookingByOther(obs: BookingByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const nf = profile.errors.not_found;
  const id = obs.bookingId;
  f.check(errorMismatch(obs.otherRead, nf, `another agency's read of booking ${id}`, profile), obs.otherRead);
  f.check(errorMismatch(obs.otherCancel, nf, `another agency's cancellation of booking ${id}`, profile), obs.otherCancel);
  if (f.check(successMismatch(obs.ownerRead, `the owner's read of booking ${id} after that`, profile), obs.ownerRead)) {
    const status = getField(obs.ownerRead.json, profile.fields.booking_status);
    f.expect(
      status === profile.values.booking_confirmed,
      `after another agency's cancellation, the owner's booking ${id} is ${JSON.stringify(status)}, expected ${JSON.stringify(profile.values.booking_confirmed)}`,
      obs.ownerRead,
      obs.otherCancel,
    );
  }
  f.check(successMismatch(obs.ownerCancel, `the owner's own cancellation of booking ${id}`, profile), obs.ownerCancel);
  judgeBothWallets(f, obs.before, obs.after, [{ bookingId: id, amount: obs.price, refunded: isSuccess(obs.ownerCancel) }], [], profile);
  return f.outcome(
    `another agency's read and cancellation of booking ${id} answered ${nf.status} ${nf.code}; the booking stayed the owner's, confirmed, and no wallet moved but by the owner's own booking and refund`,
  );
}

/** IS-01: another agency can neither read nor cancel a booking. */
export const bookingByOtherCheck: Check = {
  id: 'IS-01',
  title: "Another agency's booking can be neither read nor cancelled",
  area: 'isolation',
  clause: "SPEC §5: the wallet belongs to the agency / REF §4: another agency's booking id → 404 NOT_FOUND",
  needs: ['second-agency', 'open-product'],
  uses: {
    touches: ['0:read', '0:write', '0:wallet', '1:read', '1:write', '1:wallet'],
    requests: { read: 7, write: 2 },
    charges: 1,
  },
  async run(ctx) {
    const product = await sharedProduct(ctx);
    if (typeof product !== 'string') return product;
    const [owner, other] = [ctx.api(0), ctx.api(1)];
    const [search, before] = await Promise.all([searchProduct(ctx, owner, product, `search ${product}`), bothWallets(ctx, 'before')]);
    const offer = cheapest(search.offers);
    if (!offer) return skipped(`a search of ${product} gave no offer to book`, search);
    const booking = await bookFresh(ctx, owner, product, offer.quoteToken, "the owner's booking");
    const bookingId = booking.bookingId;
    if (!isSuccess(booking) || bookingId === undefined)
      return skipped(`the owner's booking answered ${booking.status} with no booking id: nothing to try`, booking);
    // Both tries at once: a correct service refuses each alone, whatever the other did.
    const [otherRead, otherCancel] = await Promise.all([
      retryRateLimited(ctx, () => other.getBooking(product, bookingId, { label: ctx.label("another agency's read of the booking") })),
      cancelFresh(ctx, other, product, bookingId, "another agency's cancellation of the booking"),
    ]);
    const ownerRead = await retryRateLimited(ctx, () => owner.getBooking(product, bookingId, { label: ctx.label("the owner's read of its booking") }));
    const ownerCancel = await cancelFresh(ctx, owner, product, bookingId, "the owner's cancellation of its booking");
    const after = await bothWallets(ctx, 'after');
    return judgeBookingByOther(
      { bookingId, price: booking.chargedAmount ?? offer.priceAmount, before, otherRead, otherCancel, ownerRead, ownerCancel, after },
      ctx.profile,
    );
  },
};
