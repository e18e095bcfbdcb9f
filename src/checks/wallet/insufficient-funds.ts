import type { Profile } from '../../profile/index.js';
import { formatMoney } from '../../results/units.js';
import { bookFresh } from '../_internal/booking-steps.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { productsToSearch, searchProduct, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-04 saw: a booking priced above the balance, with the wallet around it. */
interface InsufficientFundsObservations {
  price: number;
  before: WalletSnapshot;
  booking: Answer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges WL-04: a booking above the balance answers insufficient_funds and charges nothing. */
export function judgeInsufficientFunds(obs: InsufficientFundsObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.check(
    errorMismatch(obs.booking, profile.errors.insufficient_funds, `booking priced ${obs.price} with balance ${String(obs.before.balance)}`, profile),
    obs.booking,
  );
  judgeLedger(f, obs.before, obs.after, { noCharge: 'the booking above the balance' }, profile);
  const money = (v: number | undefined): string => (v === undefined ? 'unknown' : formatMoney(v, obs.before.currency));
  return f.outcome(`a booking priced ${money(obs.price)} above the balance ${money(obs.before.balance)} was refused and charged nothing`);
}

/** WL-04: a booking the wallet cannot pay is refused without charge. */
export const insufficientFundsCheck: Check = {
  id: 'WL-04',
  title: 'A booking above the balance is refused as insufficient funds, without charge',
  area: 'wallet',
  clause: 'SPEC §1: bookings are paid from a prepaid wallet / REF §5: wallet balance below the price → 402 INSUFFICIENT_FUNDS, nothing charged',
  needs: ['open-product'],
  uses: {
    requests: { read: 9, write: 1 },
    // It looks through every agency for a wallet below an offer.
    role0: 'every-agency',
  },
  async run(ctx) {
    for (let i = 0; i < ctx.agencies.length; i++) {
      const api = ctx.api(i);
      const bal = await api.balance({ label: ctx.label('balance') });
      if (bal.amount === undefined) continue;
      const products = await productsToSearch(ctx, i);
      for (const product of products) {
        const search = await searchProduct(ctx, api, product, `search ${product}`);
        const offer = search.offers.find((o) => o.priceAmount !== undefined && o.priceAmount > bal.amount!);
        if (!offer) continue;
        const before = await snapshotWallet(ctx, api, 'before');
        // The balance may have moved since it was read: the offer must still be out of reach.
        if (before.balance === undefined || before.balance >= offer.priceAmount!) continue;
        const booking = await bookFresh(ctx, api, product, offer.quoteToken, 'booking above the balance');
        const after = await snapshotWallet(ctx, api, 'after');
        return judgeInsufficientFunds({ price: offer.priceAmount!, before, booking, after }, ctx.profile);
      }
    }
    return skipped('no agency has a wallet below the price of any offer found');
  },
};
