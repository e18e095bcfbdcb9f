import type { Profile } from '../../profile/index.js';
import { bookFresh, freshQuoteAndWallet } from '../_internal/booking-steps.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-03 saw: a booking the supplier refused, with the wallet around it. */
interface FailedBookingObservations {
  before: WalletSnapshot;
  booking: Answer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges WL-03: a booking the supplier refuses answers supplier_unavailable, charges nothing and leaves no booking. */
export function judgeFailedBooking(obs: FailedBookingObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.check(errorMismatch(obs.booking, profile.errors.supplier_unavailable, 'booking the supplier refuses', profile), obs.booking);
  f.expect(obs.booking.bookingId === undefined, `the refused booking answered a booking id ${String(obs.booking.bookingId)}`, obs.booking);
  judgeLedger(f, obs.before, obs.after, { noCharge: 'the refused booking' }, profile);
  return f.outcome('a booking refused by the supplier charged nothing and left no booking');
}

/** WL-03: a failed booking charges nothing. */
export const failedBookingCheck: Check = {
  id: 'WL-03',
  title: 'A failed booking charges nothing and leaves no booking',
  area: 'wallet',
  clause: 'SPEC §1/§7: a failed booking charges nothing / REF §5: a failed booking leaves no booking',
  needs: ['failure-trigger', 'open-product'],
  uses: { requests: { read: 8, write: 1 } },
  async run(ctx) {
    const trigger = ctx.profile.failure_trigger;
    if (!trigger) return skipped('the profile names no way to make the supplier refuse a booking');
    const api = ctx.api(0);
    const [q, before] = await freshQuoteAndWallet(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to book', q?.search);
    const booking = await bookFresh(
      ctx,
      api,
      q.product,
      q.offer.quoteToken,
      'booking the supplier refuses',
      `${trigger.client_reference_prefix}-${ctx.unique('ref')}`,
    );
    const after = await snapshotWallet(ctx, api, 'after');
    return judgeFailedBooking({ before, booking, after }, ctx.profile);
  },
};
