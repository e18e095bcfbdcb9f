import type { Profile } from '../../profile/index.js';
import { bookFresh, withFreshQuoteAndWallet } from '../_internal/booking-steps.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { cancelQuietly, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What QT-05 saw: one quote booked twice under two keys, with the wallet around it. */
interface RedeemedTwiceObservations {
  price: number | undefined;
  before: WalletSnapshot;
  first: Answer & { bookingId?: string; chargedAmount?: number };
  second: Answer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges QT-05: a quote redeemed a second time answers quote_already_redeemed and is charged once. */
export function judgeRedeemedTwice(obs: RedeemedTwiceObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (!f.check(successMismatch(obs.first, 'first booking of the quote', profile), obs.first)) return f.outcome('');
  f.check(errorMismatch(obs.second, profile.errors.quote_already_redeemed, 'second booking of the same quote with another key', profile), obs.second);
  if (obs.first.bookingId) {
    judgeLedger(
      f,
      obs.before,
      obs.after,
      { debits: [{ bookingId: obs.first.bookingId, amount: obs.first.chargedAmount ?? obs.price, what: 'quote booked twice' }] },
      profile,
    );
    const debits = obs.after.entries.filter((e) => obs.second.bookingId !== undefined && e.bookingId === obs.second.bookingId);
    f.expect(debits.length === 0, `the second booking ${String(obs.second.bookingId)} was charged`, ...obs.after.evidence);
  } else f.fail(`first booking answered no booking id at ${profile.fields.booking_id}`, obs.first);
  return f.outcome('a quote redeemed a second time was refused, and charged once');
}

/** QT-05: a quote can be redeemed once. */
export const redeemedTwiceCheck: Check = {
  id: 'QT-05',
  title: 'A quote redeemed twice is refused the second time and charged once',
  area: 'quotes',
  clause: 'SPEC §1: a booking redeems the quote_token / REF §5: quote already redeemed by another booking → 409 QUOTE_ALREADY_REDEEMED',
  needs: ['open-product'],
  uses: { requests: { read: 8, write: 3 } },
  run: withFreshQuoteAndWallet(async (ctx, api, q, before) => {
    const first = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'first booking');
    const second = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'second booking, same quote, new key');
    const after = await snapshotWallet(ctx, api, 'after');
    await cancelQuietly(ctx, api, q.product, first.bookingId);
    await cancelQuietly(ctx, api, q.product, second.bookingId);
    return judgeRedeemedTwice({ price: q.offer.priceAmount, before, first, second, after }, ctx.profile);
  }),
};
