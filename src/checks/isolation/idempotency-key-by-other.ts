import type { Profile } from '../../profile/index.js';
import { cancelFresh } from '../_internal/booking-steps.js';
import { codeOf, describeAnswer, errorMismatch, isSuccess, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { bookingBodyText, cancelQuietly, cheapest, retryRateLimited, searchProduct } from '../_internal/flow-steps.js';
import { bothWallets, type BothWallets, ISOLATION_EPISODE, judgeBothWallets, leaks, type OwnBooking, sharedProduct } from '../_internal/isolation-steps.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';

type Booked = Answer & { bookingId?: string; chargedAmount?: number };

/**
 * What IS-05 saw: the owner's booking under key 1 and a refused booking under
 * key 2; then the other agency's requests under the same keys: key 1 with the
 * owner's very body, key 2 with a body of its own.
 */
interface KeyByOtherObservations {
  before: BothWallets;
  ownerBooking: Booked & { bookingId: string };
  ownerPrice: number | undefined;
  /** The other agency, key 1, the owner's body (its quote token). */
  sameBody: Booked;
  /** The other agency, key 2, its own body (its own quote). */
  ownBody: Booked;
  otherPrice: number | undefined;
  ownerCancel: Answer;
  otherCancel: Answer | undefined;
  after: BothWallets;
}

/** True when the answer says it is a replay (the profile's header and value). */
function replayed(res: Answer, profile: Profile): boolean {
  return res.headers[profile.headers.idempotent_replayed.toLowerCase()] === profile.values.replayed_true;
}

/**
 * Judges IS-05: an idempotency key is scoped by agency. The owner's key sent
 * by another agency with the owner's very body executes anew (here refused as
 * an unknown quote) and replays nothing of the owner's answer; the owner's
 * other key sent with the other agency's own body books normally, neither
 * refused as a reused key nor replayed. Neither wallet moves but by each
 * agency's own booking and refund.
 */
export function judgeKeyByOther(obs: KeyByOtherObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const hdr = profile.headers.idempotent_replayed;
  const id = obs.ownerBooking.bookingId;
  const same = obs.sameBody;
  f.check(errorMismatch(same, profile.errors.quote_not_found, "another agency's booking with the owner's Idempotency-Key and body", profile), same);
  f.expect(!replayed(same, profile), `another agency's booking with the owner's Idempotency-Key and body was answered as a replay (${hdr})`, same);
  f.check(leaks(same.text, id, "another agency's booking with the owner's Idempotency-Key and body", 'booking'), same);
  const own = obs.ownBody;
  const what = "another agency's booking of its own quote under an Idempotency-Key the owner used";
  const reused = profile.errors.idempotency_key_reused;
  const inUse = profile.errors.idempotency_key_in_use;
  const poor = profile.errors.insufficient_funds;
  const poorOk = obs.before[1].balance !== undefined && obs.otherPrice !== undefined && obs.before[1].balance < obs.otherPrice;
  if (isSuccess(own)) f.see(own);
  else if (poorOk && own.status === poor.status && codeOf(own, profile) === poor.code) f.see(own);
  else if ([reused, inUse].some((e) => own.status === e.status && codeOf(own, profile) === e.code))
    f.fail(`${what} answered ${describeAnswer(own, profile)}: the key was judged in the owner's scope, not the other agency's`, own);
  else f.fail(`${what} answered ${describeAnswer(own, profile)}, expected a booking`, own);
  f.expect(!replayed(own, profile), `${what} was answered as a replay (${hdr})`, own);
  f.check(leaks(own.text, id, what, 'booking'), own);
  const ownerOwn: OwnBooking[] = [{ bookingId: id, amount: obs.ownerPrice, refunded: isSuccess(obs.ownerCancel) }];
  const otherOwn: OwnBooking[] =
    isSuccess(own) && own.bookingId !== undefined && own.bookingId !== id
      ? [{ bookingId: own.bookingId, amount: obs.otherPrice, refunded: obs.otherCancel !== undefined && isSuccess(obs.otherCancel) }]
      : [];
  judgeBothWallets(f, obs.before, obs.after, ownerOwn, otherOwn, profile);
  return f.outcome(
    "the owner's Idempotency-Keys sent by another agency were judged in that agency's own scope: the owner's body was refused as an unknown quote with no replay, and a body of its own booked; no wallet moved but by each agency's own bookings",
  );
}

/** Books `token` as agency `index` under `key` with the exact bytes of the profile's body. */
function bookWithKey(ctx: CheckContext, index: number, product: string, token: string, key: string, body: string, label: string): Promise<Booked> {
  const api = ctx.api(index);
  return retryRateLimited(ctx, () => api.book(product, token, key, { body, label: ctx.label(label) }));
}

/** IS-05: an Idempotency-Key is scoped by agency. */
export const idempotencyKeyByOtherCheck: Check = {
  id: 'IS-05',
  title: "Another agency's Idempotency-Key neither replays nor blocks",
  area: 'isolation',
  clause: 'SPEC §4: the same key and body replay the original response / REF §7: the scope of a key is (agency, method, path)',
  needs: ['second-agency', 'open-product'],
  ...ISOLATION_EPISODE,
  async run(ctx) {
    const product = await sharedProduct(ctx);
    if (typeof product !== 'string') return product;
    const p = ctx.profile;
    const [ownerSearch, otherSearch, before] = await Promise.all([
      searchProduct(ctx, ctx.api(0), product, `search ${product} (owner)`),
      searchProduct(ctx, ctx.api(1), product, `search ${product} (other agency)`),
      bothWallets(ctx, 'before'),
    ]);
    const mine = cheapest(ownerSearch.offers);
    const theirs = cheapest(otherSearch.offers);
    if (!mine || !theirs) return skipped(`a search of ${product} gave no offer to book`, ownerSearch, otherSearch);
    const [key1, key2] = [ctx.unique('idem-shared'), ctx.unique('idem-shared')];
    const ownerBody = bookingBodyText(p, mine.quoteToken, ctx.unique('ref'));
    const unknownToken = `qt_${ctx.unique('unknown').replace(/[^A-Za-z0-9_-]/g, '_')}`;
    // Key 2 is first used by the owner with a body that is refused: a service that stores every final answer holds it under key 2.
    const [ownerBooking] = await Promise.all([
      bookWithKey(ctx, 0, product, mine.quoteToken, key1, ownerBody, "the owner's booking under key 1"),
      bookWithKey(ctx, 0, product, unknownToken, key2, bookingBodyText(p, unknownToken, ctx.unique('ref')), "the owner's refused booking under key 2"),
    ]);
    const ownerId = ownerBooking.bookingId;
    if (!isSuccess(ownerBooking) || ownerId === undefined)
      return skipped(`the owner's booking answered ${ownerBooking.status} with no booking id: no key to try`, ownerBooking);
    const [sameBody, ownBody] = await Promise.all([
      bookWithKey(ctx, 1, product, mine.quoteToken, key1, ownerBody, "another agency: key 1 with the owner's body"),
      bookWithKey(
        ctx,
        1,
        product,
        theirs.quoteToken,
        key2,
        bookingBodyText(p, theirs.quoteToken, ctx.unique('ref')),
        'another agency: key 2 with its own body',
      ),
    ]);
    const ownId = ownBody.bookingId;
    const [ownerCancel, otherCancel] = await Promise.all([
      cancelFresh(ctx, ctx.api(0), product, ownerId, "the owner's cancellation"),
      isSuccess(ownBody) && ownId !== undefined && ownId !== ownerId
        ? cancelFresh(ctx, ctx.api(1), product, ownId, "the other agency's cancellation")
        : undefined,
      // A copy of the owner's booking the other agency should never have had is cancelled too, to give the money back.
      isSuccess(sameBody) && sameBody.bookingId !== ownerId ? cancelQuietly(ctx, ctx.api(1), product, sameBody.bookingId) : undefined,
    ]);
    const after = await bothWallets(ctx, 'after');
    return judgeKeyByOther(
      {
        before,
        ownerBooking: { ...ownerBooking, bookingId: ownerId },
        ownerPrice: ownerBooking.chargedAmount ?? mine.priceAmount,
        sameBody,
        ownBody,
        otherPrice: theirs.priceAmount,
        ownerCancel,
        otherCancel,
        after,
      },
      p,
    );
  },
};
