import type { Profile } from '../../profile/index.js';
import { withFreshQuote } from '../_internal/booking-steps.js';
import { successMismatch } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { bookingBodyText, cancelQuietly, retryRateLimited, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeReplay, type ByteAnswer } from '../_internal/replay-judging.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What ID-02 saw: one booking sent twice with the same key and body. */
interface SameKeyReplayObservations {
  price: number | undefined;
  before: WalletSnapshot;
  original: ByteAnswer & { bookingId?: string; chargedAmount?: number };
  replay: ByteAnswer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges ID-02: the replay is the original byte for byte, flagged as a replay, and only one booking is charged once. */
export function judgeSameKeyReplay(obs: SameKeyReplayObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (!f.check(successMismatch(obs.original, 'original booking', profile), obs.original)) return f.outcome('');
  judgeReplay(f, obs.original, obs.replay, 'booking sent again with the same key and body', profile);
  const id = obs.original.bookingId;
  if (!f.expect(id !== undefined, `original booking answered no booking id at ${profile.fields.booking_id}`, obs.original)) return f.outcome('');
  if (obs.replay.bookingId !== undefined && obs.replay.bookingId !== id)
    f.fail(`the replay created a second booking ${obs.replay.bookingId}`, obs.original, obs.replay);
  judgeLedger(
    f,
    obs.before,
    obs.after,
    { debits: [{ bookingId: id!, amount: obs.original.chargedAmount ?? obs.price, what: 'booking sent twice with one key' }] },
    profile,
  );
  if (obs.replay.bookingId !== undefined && obs.replay.bookingId !== id) {
    const extra = obs.after.entries.filter((e) => e.bookingId === obs.replay.bookingId && e.type === profile.values.entry_debit);
    f.expect(extra.length === 0, `the replay's booking ${obs.replay.bookingId} was charged too`, ...obs.after.evidence);
  }
  return f.outcome(
    `the replay was byte-identical, flagged ${profile.headers.idempotent_replayed}: ${profile.values.replayed_true}, and booking ${String(id)} was charged once`,
  );
}

/** ID-02: the same key and body replays the original response and books once. */
export const sameKeyReplayCheck: Check = {
  id: 'ID-02',
  title: 'Same key and body replays the original response byte for byte, booking and charging once',
  area: 'idempotency',
  clause: 'SPEC §4: the same Idempotency-Key with the same body replays the original response; a retry cannot book twice / REF §7',
  needs: ['open-product'],
  uses: { requests: { read: 8, write: 3 } },
  run: withFreshQuote(async (ctx, api, q) => {
    const key = ctx.unique('idem');
    const body = bookingBodyText(ctx.profile, q.offer.quoteToken, ctx.unique('ref'));
    const before = await snapshotWallet(ctx, api, 'before');
    const original = await retryRateLimited(ctx, () => api.book(q.product, q.offer.quoteToken, key, { label: ctx.label('original booking'), body }));
    const replay = await retryRateLimited(ctx, () => api.book(q.product, q.offer.quoteToken, key, { label: ctx.label('same key, same body'), body }));
    const after = await snapshotWallet(ctx, api, 'after');
    await cancelQuietly(ctx, api, q.product, original.bookingId);
    if (replay.bookingId !== original.bookingId) await cancelQuietly(ctx, api, q.product, replay.bookingId);
    return judgeSameKeyReplay({ price: q.offer.priceAmount, before, original, replay, after }, ctx.profile);
  }),
};
