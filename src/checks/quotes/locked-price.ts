import { answeredAt } from '../../api/answer-time.js';
import { formatMoney } from '../../results/units.js';
import type { Offer, TargetApi } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { bookFresh } from '../_internal/booking-steps.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { cancelQuietly, productsToSearch, searchProduct, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';
import { EXPECTED_TURN_WAIT_MS, LONGEST_TURN_WAIT_MS, planTurn, SHORTEST_TURN_LIFETIME_S, targetTime, TURN_MARGIN_MS } from './minute-turn.js';

type SearchAnswer = Answer & { offers: Offer[] };

/** The booking of the first quote after the live price moved, with the wallet around it. */
interface MovedPriceBooking {
  /** Index of the offer whose price moved. */
  index: number;
  lockedPrice: number;
  livePrice: number;
  before: WalletSnapshot;
  booking: Answer & { bookingId?: string; chargedAmount?: number };
  after: WalletSnapshot;
}

/** What QT-03 saw: a quote, a later search of the same criteria, and (if the price moved) the booking of the first quote. */
interface LockedPriceObservations {
  first: SearchAnswer;
  later: SearchAnswer[];
  /** Searches before `first` whose quotes it could not use (their minute's turn came too late in their life, or it resumed too late). */
  earlier?: SearchAnswer[];
  /** Absent when no price moved. */
  moved?: MovedPriceBooking;
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
  f.see(...(obs.earlier ?? []), obs.first, ...obs.later);
  const m = obs.moved;
  if (!m) {
    f.warn(
      `could not observe a price move: ${obs.later.length + 1} searches of the same criteria across ${obs.later.length} clock minute turn(s) gave the same prices`,
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
  return f.outcome(
    `the quote's locked price ${formatMoney(m.lockedPrice, m.before.currency)} was charged though the live price had moved to ${formatMoney(m.livePrice, m.before.currency)}`,
  );
}

/** Books the first search's offer `index`, whose price moved in `again`, reading the wallet before and after (the booking is cancelled after). */
async function bookMoved(
  ctx: CheckContext,
  api: TargetApi,
  product: string,
  first: SearchAnswer,
  again: SearchAnswer,
  index: number,
): Promise<MovedPriceBooking> {
  const offer = first.offers[index]!;
  const before = await snapshotWallet(ctx, api, 'before');
  const booking = await bookFresh(ctx, api, product, offer.quoteToken, 'booking of the first quote');
  const after = await snapshotWallet(ctx, api, 'after');
  await cancelQuietly(ctx, api, product, booking.bookingId);
  return { index, lockedPrice: offer.priceAmount!, livePrice: again.offers[index]!.priceAmount!, before, booking, after };
}

/** Waits until harness instant `until` holding nothing of its lease, and takes the lease back (at once where the check runs alone). */
async function waitLeaseFree(ctx: CheckContext, until: number, why: string): Promise<void> {
  if (until <= ctx.clock.now()) return;
  ctx.narrowLease?.([], until);
  await ctx.clock.waitUntil(until, why);
  await ctx.widenLease?.();
}

/** Minute turns it searches across at most while the prices stay the same. */
const MAX_TURNS = 2;

/** Waits it makes at most: a search just before a turn, a start over, and the turns. */
const MAX_WAITS = 2 + 2 * MAX_TURNS;

/**
 * Target time QT-03 waits for a quote of `lifetimeS`, ms: none when the quote
 * is too short; when the target's time at the start of the run is known
 * (`targetAt`), the wait its turn plan makes from a search `startMs` later;
 * else the expected wait across a minute's turn.
 */
export function lockWaitMs(lifetimeS: number, targetAt?: number, startMs = 0): number {
  if (lifetimeS < SHORTEST_TURN_LIFETIME_S) return 0;
  if (targetAt === undefined) return EXPECTED_TURN_WAIT_MS;
  targetAt += startMs;
  const plan = planTurn({ offsetMs: 0, answeredAt: targetAt, expiresAt: targetAt + lifetimeS * 1000, roundTripMs: 0, source: 'clock' });
  if (plan.kind === 'after-turn') return plan.searchAt - targetAt;
  // A fresh search just before the turn, then across it.
  if (plan.kind === 'before-turn') return plan.searchAt - targetAt + 3 * TURN_MARGIN_MS;
  return EXPECTED_TURN_WAIT_MS;
}

/** QT-03: the locked price is charged though the live price moved. */
export const lockedPriceCheck: Check = {
  id: 'QT-03',
  title: 'A booking is charged the locked quote price, not the live price',
  area: 'quotes',
  clause: 'SPEC §1: the quote_token locks the price until quote_expires_at; clients must not cache prices / REF §6',
  needs: ['open-product'],
  uses: {
    requests: { read: 9, write: 2 },
    wait: {
      ms: (p, learned, startMs) => lockWaitMs(learned?.quoteLifetimeS ?? p.quotes.lifetime_s, learned?.targetAt, startMs),
      // Each of its waits is for a minute's turn at most.
      longestMs: (p, learned) => ((learned?.quoteLifetimeS ?? p.quotes.lifetime_s) < SHORTEST_TURN_LIFETIME_S ? 0 : LONGEST_TURN_WAIT_MS),
      why: "the target's clock minute to turn",
      // It holds nothing while the target's clock minute turns, and takes its lease back to search and book.
      holds: [],
      resumes: true,
    },
  },
  /**
   * From a first search, it waits for the next turn of the target's clock
   * minute when the quote outlives it with time to book (else it waits to
   * search anew just before the turn), searches again and books the first
   * quote once a price moved. When its lease comes back too late for that
   * (the quote ran out meanwhile), it starts over once.
   */
  async run(ctx) {
    // The lifetime the service gives its quotes, when the run learned it: waiting past it would see an expired quote, not a locked price.
    const lifetimeS = ctx.learned?.quoteLifetimeS ?? ctx.profile.quotes.lifetime_s;
    if (lifetimeS < SHORTEST_TURN_LIFETIME_S)
      return skipped(`the quote lifetime of ${lifetimeS} s is too short to search on both sides of a clock minute's turn and book within it`);
    const products = await productsToSearch(ctx, 0);
    const product = products[0];
    if (product === undefined) return skipped('the primary agency has no open product with search criteria in the profile');
    const api = ctx.api(0);
    const driven = ctx.clock.kind === 'mock';
    const earlier: SearchAnswer[] = [];
    let first = await searchProduct(ctx, api, product, 'first search');
    let later: SearchAnswer[] = [];
    let startedOver = false;
    for (let waits = 0; waits < MAX_WAITS; waits++) {
      if (first.offers.length === 0) return skipped('the search gave no quote', ...earlier, first);
      const t = targetTime(first, lifetimeS, driven);
      const last = later.at(-1);
      const plan = planTurn(t, last && answeredAt(last) + t.offsetMs);
      if (plan.kind === 'none') break;
      const beforeTurn = plan.kind === 'before-turn';
      await waitLeaseFree(ctx, plan.searchAt - t.offsetMs, beforeTurn ? 'close to the next clock minute' : 'the next clock minute');
      const lateMs = ctx.clock.now() + t.offsetMs - plan.searchBy;
      if (lateMs > 0) {
        const why = `it took its lease back ${Math.ceil(lateMs / 1000)} s too late to ${beforeTurn ? "search before the clock minute's turn" : 'book its quote before it expired'}`;
        if (startedOver)
          return skipped(`${why}, after starting over once: no price move seen within a quote's life of ${lifetimeS} s`, ...earlier, first, ...later);
        startedOver = true;
        ctx.log(`${ctx.checkId}: ${why}; starting over with a new search`);
      }
      if (lateMs > 0 || beforeTurn) {
        earlier.push(first, ...later);
        later = [];
        first = await searchProduct(ctx, api, product, lateMs > 0 ? 'first search again' : "search just before the clock minute's turn");
        continue;
      }
      const again = await searchProduct(ctx, api, product, `same search after clock minute turn ${later.length + 1}`);
      later.push(again);
      const index = movedIndex(first.offers, again.offers);
      if (index !== undefined) {
        const moved = await bookMoved(ctx, api, product, first, again, index);
        return judgeLockedPrice({ first, later, earlier, moved }, ctx.profile);
      }
      if (later.length >= MAX_TURNS) break;
    }
    if (later.length === 0)
      return skipped(`no clock minute's turn came early enough in a quote's life of ${lifetimeS} s to search across it`, ...earlier, first);
    return judgeLockedPrice({ first, later, earlier }, ctx.profile);
  },
};
