import type { Profile } from '../../profile/index.js';
import { bookFresh, withFreshQuote } from '../_internal/booking-steps.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { cancelQuietly, retryRateLimited, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What ID-01 saw: a booking and a cancellation sent without an idempotency key. */
interface KeyRequiredObservations {
  before: WalletSnapshot;
  bookingWithoutKey: Answer;
  afterBooking: WalletSnapshot;
  /** A cancellation without key, of a booking made for the purpose. */
  cancelWithoutKey?: Answer;
  beforeCancel?: WalletSnapshot;
  afterCancel?: WalletSnapshot;
}

/** Judges ID-01: booking and cancellation without an idempotency key answer idempotency_key_required and do nothing. */
export function judgeKeyRequired(obs: KeyRequiredObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors.idempotency_key_required;
  f.check(errorMismatch(obs.bookingWithoutKey, e, `booking without ${profile.headers.idempotency_key}`, profile), obs.bookingWithoutKey);
  judgeLedger(f, obs.before, obs.afterBooking, { noCharge: 'the booking without idempotency key' }, profile);
  if (obs.cancelWithoutKey) {
    f.check(errorMismatch(obs.cancelWithoutKey, e, `cancellation without ${profile.headers.idempotency_key}`, profile), obs.cancelWithoutKey);
    if (obs.beforeCancel && obs.afterCancel) judgeLedger(f, obs.beforeCancel, obs.afterCancel, {}, profile);
    if (obs.beforeCancel?.balance !== undefined && obs.afterCancel?.balance !== undefined) {
      f.expect(
        obs.afterCancel.balance <= obs.beforeCancel.balance,
        `the cancellation without key refunded ${obs.afterCancel.balance - obs.beforeCancel.balance}`,
        obs.cancelWithoutKey,
      );
    }
  }
  return f.outcome(`booking and cancellation without ${profile.headers.idempotency_key} answered ${e.status} ${e.code} and did nothing`);
}

/** ID-01: bookings and cancellations require an idempotency key. */
export const keyRequiredCheck: Check = {
  id: 'ID-01',
  title: 'Booking and cancellation without an idempotency key are refused',
  area: 'idempotency',
  clause: 'SPEC §4: booking and cancellation require the header Idempotency-Key / REF §7: missing → 400 IDEMPOTENCY_KEY_REQUIRED',
  needs: ['open-product'],
  uses: { requests: { read: 12, write: 4 } },
  run: withFreshQuote(async (ctx, api, q) => {
    const before = await snapshotWallet(ctx, api, 'before');
    const ref = ctx.unique('ref');
    const bookingWithoutKey = await retryRateLimited(ctx, () =>
      api.book(q.product, q.offer.quoteToken, undefined, { label: ctx.label('booking without key'), clientReference: ref }),
    );
    const afterBooking = await snapshotWallet(ctx, api, 'after booking');
    const obs: KeyRequiredObservations = { before, bookingWithoutKey, afterBooking };
    const booked = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'booking to cancel');
    if (booked.bookingId) {
      const id = booked.bookingId;
      obs.beforeCancel = await snapshotWallet(ctx, api, 'before cancellation');
      obs.cancelWithoutKey = await retryRateLimited(ctx, () => api.cancel(q.product, id, undefined, { label: ctx.label('cancellation without key') }));
      obs.afterCancel = await snapshotWallet(ctx, api, 'after cancellation');
      await cancelQuietly(ctx, api, q.product, id);
    }
    return judgeKeyRequired(obs, ctx.profile);
  }),
};
