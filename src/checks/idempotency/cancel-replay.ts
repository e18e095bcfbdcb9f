import type { Profile } from '../../profile/index.js';
import { bookFresh, withFreshQuote } from '../_internal/booking-steps.js';
import { successMismatch } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { retryRateLimited, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeReplay, type ByteAnswer } from '../_internal/replay-judging.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What ID-05 saw: a cancellation sent twice with one key and body. */
interface CancelReplayObservations {
  bookingId: string;
  price: number | undefined;
  before: WalletSnapshot;
  original: ByteAnswer & { refundAmount?: number };
  replay: ByteAnswer;
  after: WalletSnapshot;
}

/** Judges ID-05: a replayed cancellation answers the original and refunds once. */
export function judgeCancelReplay(obs: CancelReplayObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (!f.check(successMismatch(obs.original, 'original cancellation', profile), obs.original)) return f.outcome('');
  judgeReplay(f, obs.original, obs.replay, 'cancellation sent again with the same key and body', profile);
  judgeLedger(
    f,
    obs.before,
    obs.after,
    { refunds: [{ bookingId: obs.bookingId, amount: obs.original.refundAmount ?? obs.price, what: 'cancellation sent twice with one key' }] },
    profile,
  );
  return f.outcome(`the cancellation replay was byte-identical and booking ${obs.bookingId} was refunded once`);
}

/** ID-05: a replayed cancellation refunds once. */
export const cancelReplayCheck: Check = {
  id: 'ID-05',
  title: 'A cancellation replayed with the same key refunds once',
  area: 'idempotency',
  clause: 'SPEC §4: cancellation requires an Idempotency-Key; the same key and body replays the original response / REF §7',
  needs: ['open-product'],
  uses: { requests: { read: 8, write: 3 } },
  run: withFreshQuote(async (ctx, api, q) => {
    const booked = await bookFresh(ctx, api, q.product, q.offer.quoteToken, 'booking to cancel');
    const bookingId = booked.bookingId;
    if (!bookingId) return skipped(`the booking to cancel failed (${booked.status})`, booked);
    const key = ctx.unique('idem');
    const body = JSON.stringify(ctx.profile.cancel_body ?? {});
    const before = await snapshotWallet(ctx, api, 'before');
    const original = await retryRateLimited(ctx, () => api.cancel(q.product, bookingId, key, { label: ctx.label('original cancellation'), body }));
    const replay = await retryRateLimited(ctx, () => api.cancel(q.product, bookingId, key, { label: ctx.label('same key, same body'), body }));
    const after = await snapshotWallet(ctx, api, 'after');
    return judgeCancelReplay({ bookingId, price: booked.chargedAmount ?? q.offer.priceAmount, before, original, replay, after }, ctx.profile);
  }),
};
