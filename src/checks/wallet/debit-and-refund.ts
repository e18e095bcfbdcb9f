import type { Profile } from '../../profile/index.js';
import { formatMoney } from '../../results/units.js';
import { bookFresh, cancelFresh, withFreshQuoteAndWallet } from '../_internal/booking-steps.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-02 saw: a booking at a quoted price and its cancellation, with the wallet around each. */
interface DebitRefundObservations {
  quotedPrice: number | undefined;
  before: WalletSnapshot;
  booking: Answer & { bookingId?: string; chargedAmount?: number };
  afterBooking: WalletSnapshot;
  cancellation: (Answer & { refundAmount?: number }) | undefined;
  afterCancel: WalletSnapshot | undefined;
}

/** Judges WL-02: a booking is debited exactly once at its price, and its cancellation refunds the full price. */
export function judgeDebitAndRefund(obs: DebitRefundObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const b = obs.booking;
  if (!f.check(successMismatch(b, 'booking', profile), b)) return f.outcome('');
  const id = b.bookingId;
  if (!f.expect(id !== undefined, `booking response has no booking id at ${profile.fields.booking_id}`, b)) return f.outcome('');
  const price = b.chargedAmount ?? obs.quotedPrice;
  if (obs.quotedPrice !== undefined && b.chargedAmount !== undefined) {
    f.expect(b.chargedAmount === obs.quotedPrice, `booking price ${b.chargedAmount} differs from the quoted ${obs.quotedPrice}`, b);
  }
  judgeLedger(f, obs.before, obs.afterBooking, { debits: [{ bookingId: id!, amount: price, what: 'booking' }] }, profile);
  const c = obs.cancellation;
  if (f.expect(c !== undefined, 'the booking was not cancelled') && c) {
    if (f.check(successMismatch(c, 'cancellation', profile), c)) {
      if (c.refundAmount !== undefined && price !== undefined)
        f.expect(c.refundAmount === price, `cancellation refund ${c.refundAmount} differs from the price ${price}`, c);
      if (obs.afterCancel) judgeLedger(f, obs.afterBooking, obs.afterCancel, { refunds: [{ bookingId: id!, amount: price, what: 'cancellation' }] }, profile);
    }
  }
  const amount = price === undefined ? 'an unknown price' : formatMoney(price, obs.before.currency);
  return f.outcome(`booking ${String(id)} was debited once at ${amount} and its cancellation refunded ${amount}`);
}

/** WL-02: a booking debits its price once; a cancellation refunds it in full. */
export const debitAndRefundCheck: Check = {
  id: 'WL-02',
  title: 'A booking is debited once at its price; a cancellation refunds the full price',
  area: 'wallet',
  clause: 'SPEC §1: bookings are paid from a prepaid wallet (balance and statement readable) / REF §5: a cancellation refunds the full price',
  needs: ['open-product'],
  uses: { requests: { read: 10, write: 2 } },
  run: withFreshQuoteAndWallet(async (ctx, api, q, before) => {
    const booking = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'booking');
    const afterBooking = await snapshotWallet(ctx, api, 'after booking');
    let cancellation;
    let afterCancel;
    if (booking.bookingId) {
      cancellation = await cancelFresh(ctx, api, q.product, booking.bookingId, 'cancellation');
      afterCancel = await snapshotWallet(ctx, api, 'after cancellation');
    }
    return judgeDebitAndRefund({ quotedPrice: q.offer.priceAmount, before, booking, afterBooking, cancellation, afterCancel }, ctx.profile);
  }),
};
