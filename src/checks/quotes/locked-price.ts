import type { Offer } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { bookFresh } from '../_internal/booking-steps.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../_internal/findings.js';
import { cancelQuietly, productsToSearch, searchProduct, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** How long to wait for the next clock minute, ms. */
const MINUTE_STEP_MS = 61_000;

/** What QT-03 saw: a quote, a later search of the same criteria, and (if the price moved) the booking of the first quote. */
interface LockedPriceObservations {
  first: Answer & { offers: Offer[] };
  later: Array<Answer & { offers: Offer[] }>;
  /** Index of the offer whose price moved, and what was booked; absent when no price moved. */
  moved?: {
    index: number;
    lockedPrice: number;
    livePrice: number;
    before: WalletSnapshot;
    booking: Answer & { bookingId?: string; chargedAmount?: number };
    after: WalletSnapshot;
  };
}

/** Clock minutes (at most 2) a quote of `lifetimeS` outlives with time to book it: each wait must leave the first quote valid. */
function minuteSteps(lifetimeS: number): number {
  return Math.max(0, Math.min(2, Math.floor((lifetimeS * 1000 - 10_000) / MINUTE_STEP_MS)));
}

/** The first offer index whose price differs between two searches of the same criteria. */
export function movedIndex(a: readonly Offer[], b: readonly Offer[]): number | undefined {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const pa = a[i]!.priceAmount;
    const pb = b[i]!.priceAmount;
    if (pa !== undefined && pb !== undefined && pa !== pb) return i;
  }
  return undefined;
}

/** Judges QT-03: a booking is charged the locked price of its quote, not the live one. */
export function judgeLockedPrice(obs: LockedPriceObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  f.see(obs.first, ...obs.later);
  const m = obs.moved;
  if (!m) {
    f.warn(
      `could not observe a price move: ${obs.later.length + 1} searches of the same criteria over ${obs.later.length} minute(s) gave the same prices`,
      obs.first,
      ...obs.later,
    );
    return f.outcome('');
  }
  if (!f.check(successMismatch(m.booking, 'booking of the first quote', profile), m.booking)) return f.outcome('');
  const what = `booking of a quote at ${m.lockedPrice} after the live price moved to ${m.livePrice}`;
  if (m.booking.chargedAmount !== undefined)
    f.expect(m.booking.chargedAmount === m.lockedPrice, `${what} was charged ${m.booking.chargedAmount}`, obs.first, ...obs.later, m.booking);
  if (m.booking.bookingId) judgeLedger(f, m.before, m.after, { debits: [{ bookingId: m.booking.bookingId, amount: m.lockedPrice, what }] }, profile);
  else f.fail(`${what}: no booking id at ${profile.fields.booking_id}`, m.booking);
  return f.outcome(`the quote's locked price ${m.lockedPrice} was charged though the live price had moved to ${m.livePrice}`);
}

/** QT-03: the locked price is charged though the live price moved. */
export const lockedPriceCheck: Check = {
  id: 'QT-03',
  title: 'A booking is charged the locked quote price, not the live price',
  area: 'quotes',
  clause: 'SPEC §1: the quote_token locks the price until quote_expires_at; clients must not cache prices / REF §6',
  needs: ['open-product'],
  uses: { requests: { read: 9, write: 2 }, wait: { ms: (p, learned) => minuteSteps(learned?.quoteLifetimeS ?? p.quotes.lifetime_s) * MINUTE_STEP_MS } },
  async run(ctx) {
    // The lifetime the service gives its quotes, when the run learned it: waiting past it would see an expired quote, not a locked price.
    const lifetimeS = ctx.learned?.quoteLifetimeS ?? ctx.profile.quotes.lifetime_s;
    const maxSteps = minuteSteps(lifetimeS);
    if (maxSteps < 1) return skipped(`the quote lifetime of ${lifetimeS} s is too short to see the next clock minute within it`);
    const products = await productsToSearch(ctx, 0);
    const product = products[0];
    if (product === undefined) return skipped('the primary agency has no open product with search criteria in the profile');
    const api = ctx.api(0);
    const first = await searchProduct(ctx, api, product, 'first search');
    if (first.offers.length === 0) return skipped('the search gave no quote', first);
    const obs: LockedPriceObservations = { first, later: [] };
    for (let step = 0; step < maxSteps; step++) {
      await ctx.clock.wait(MINUTE_STEP_MS, 'the next clock minute');
      const again = await searchProduct(ctx, api, product, `same search ${step + 1} minute(s) later`);
      obs.later.push(again);
      const index = movedIndex(first.offers, again.offers);
      if (index === undefined) continue;
      const offer = first.offers[index]!;
      const before = await snapshotWallet(ctx, api, 'before');
      const booking = await bookFresh(ctx, api, product, offer.quoteToken, 'booking of the first quote');
      const after = await snapshotWallet(ctx, api, 'after');
      obs.moved = { index, lockedPrice: offer.priceAmount!, livePrice: again.offers[index]!.priceAmount!, before, booking, after };
      await cancelQuietly(ctx, api, product, booking.bookingId);
      break;
    }
    return judgeLockedPrice(obs, ctx.profile);
  },
};
