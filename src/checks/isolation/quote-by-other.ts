import type { Profile } from '../../profile/index.js';
import { bookFresh, cancelFresh } from '../_internal/booking-steps.js';
import { errorMismatch, isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { cancelQuietly } from '../_internal/flow-steps.js';
import { bothWallets, type BothWallets, ISOLATION_EPISODE, judgeBothWallets, type OwnBooking, ownerOffer } from '../_internal/isolation-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** What IS-02 saw: another agency's booking with the owner's quote token, then the owner's booking of it and its cancellation. */
interface QuoteByOtherObservations {
  price: number | undefined;
  before: BothWallets;
  otherBooking: Answer & { bookingId?: string };
  ownerBooking: Answer & { bookingId?: string; chargedAmount?: number };
  ownerCancel: (Answer & { refundAmount?: number }) | undefined;
  after: BothWallets;
}

/**
 * Judges IS-02: another agency's booking with the owner's quote token is
 * refused as an unknown quote and charges nobody; the quote stays the
 * owner's, who then books it at its quoted price and cancels it for a full
 * refund (the cheapest proof that it was neither redeemed nor spent).
 */
export function judgeQuoteByOther(obs: QuoteByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const qnf = profile.errors.quote_not_found;
  f.check(errorMismatch(obs.otherBooking, qnf, "another agency's booking with the owner's quote token", profile), obs.otherBooking);
  const own: OwnBooking[] = [];
  if (f.check(successMismatch(obs.ownerBooking, "the owner's booking of its own quote after that", profile), obs.ownerBooking)) {
    const id = obs.ownerBooking.bookingId;
    if (f.expect(id !== undefined, `the owner's booking answered no booking id at ${profile.fields.booking_id}`, obs.ownerBooking) && id !== undefined) {
      if (obs.price !== undefined && obs.ownerBooking.chargedAmount !== undefined)
        f.expect(
          obs.ownerBooking.chargedAmount === obs.price,
          `the owner's booking of its quote was priced ${obs.ownerBooking.chargedAmount}, quoted ${obs.price}`,
          obs.ownerBooking,
        );
      const cancel = obs.ownerCancel;
      if (cancel) f.check(successMismatch(cancel, `the owner's cancellation of booking ${id}`, profile), cancel);
      own.push({ bookingId: id, amount: obs.price, refunded: cancel !== undefined && isSuccess(cancel) });
    }
  }
  judgeBothWallets(f, obs.before, obs.after, own, [], profile);
  return f.outcome(
    `another agency's booking with the owner's quote token answered ${qnf.status} ${qnf.code} and charged nobody; the owner then booked its quote at the quoted price and was refunded in full`,
  );
}

/** IS-02: another agency cannot book with an agency's quote token. */
export const quoteByOtherCheck: Check = {
  id: 'IS-02',
  title: "Another agency's quote token cannot be booked",
  area: 'isolation',
  clause: "SPEC §1: a booking redeems the quote_token of the agency's search / REF §5: a quote_token of another agency → 404 QUOTE_NOT_FOUND, nothing charged",
  needs: ['second-agency', 'open-product'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const start = await ownerOffer(ctx);
    if (!('offer' in start)) return start;
    const { product, owner, other, offer, before } = start;
    const otherBooking = await bookFresh(ctx, other, product, offer.quoteToken, "another agency's booking with the owner's quote token");
    const ownerBooking = await bookFresh(ctx, owner, product, offer.quoteToken, "the owner's booking of its quote");
    const ownerCancel =
      isSuccess(ownerBooking) && ownerBooking.bookingId !== undefined
        ? await cancelFresh(ctx, owner, product, ownerBooking.bookingId, "the owner's cancellation (full refund)")
        : undefined;
    // A booking the other agency should never have had gives its money back before the wallets are read.
    if (isSuccess(otherBooking)) await cancelQuietly(ctx, other, product, otherBooking.bookingId);
    const after = await bothWallets(ctx, 'after');
    return judgeQuoteByOther({ price: offer.priceAmount, before, otherBooking, ownerBooking, ownerCancel, after }, ctx.profile);
  },
};
