import type { Profile } from '../../profile/index.js';
import { withFreshQuote } from '../_internal/booking-steps.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { bookingBodyText, cancelQuietly, retryRateLimited, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** What ID-03 saw: one key sent with two different bodies. */
interface KeyReusedObservations {
  price: number | undefined;
  before: WalletSnapshot;
  first: Answer & { bookingId?: string; chargedAmount?: number };
  other: Answer & { bookingId?: string };
  after: WalletSnapshot;
}

/** Judges ID-03: a key reused with another body answers idempotency_key_reused and charges nothing more. */
export function judgeKeyReused(obs: KeyReusedObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (!f.check(successMismatch(obs.first, 'first booking', profile), obs.first)) return f.outcome('');
  f.check(errorMismatch(obs.other, profile.errors.idempotency_key_reused, 'same key with another body', profile), obs.first, obs.other);
  if (obs.first.bookingId) {
    judgeLedger(
      f,
      obs.before,
      obs.after,
      { debits: [{ bookingId: obs.first.bookingId, amount: obs.first.chargedAmount ?? obs.price, what: 'first booking' }] },
      profile,
    );
    const others = obs.after.entries.filter(
      (e) =>
        e.type === profile.values.entry_debit &&
        obs.other.bookingId !== undefined &&
        e.bookingId === obs.other.bookingId &&
        e.bookingId !== obs.first.bookingId,
    );
    f.expect(others.length === 0, `the request with another body was charged (booking ${String(obs.other.bookingId)})`, ...obs.after.evidence);
  } else f.fail(`first booking answered no booking id at ${profile.fields.booking_id}`, obs.first);
  const e = profile.errors.idempotency_key_reused;
  return f.outcome(`the key reused with another body answered ${e.status} ${e.code} and charged nothing`);
}

/** ID-03: the same key with another body is refused. */
export const keyReusedCheck: Check = {
  id: 'ID-03',
  title: 'Same key with another body is refused and charges nothing',
  area: 'idempotency',
  clause: 'SPEC §4: Idempotency-Key replays only with the same body / REF §7: same key, other body → 422 IDEMPOTENCY_KEY_REUSED',
  needs: ['open-product'],
  uses: { requests: { read: 8, write: 3 } },
  run: withFreshQuote(async (ctx, api, q) => {
    const key = ctx.unique('idem');
    const body1 = bookingBodyText(ctx.profile, q.offer.quoteToken, ctx.unique('ref'));
    const body2 = bookingBodyText(ctx.profile, q.offer.quoteToken, ctx.unique('ref'));
    const before = await snapshotWallet(ctx, api, 'before');
    const first = await retryRateLimited(ctx, () => api.book(q.product, q.offer.quoteToken, key, { label: ctx.label('first booking'), body: body1 }));
    const other = await retryRateLimited(ctx, () => api.book(q.product, q.offer.quoteToken, key, { label: ctx.label('same key, other body'), body: body2 }));
    const after = await snapshotWallet(ctx, api, 'after');
    await cancelQuietly(ctx, api, q.product, first.bookingId);
    if (other.bookingId !== first.bookingId) await cancelQuietly(ctx, api, q.product, other.bookingId);
    return judgeKeyReused({ price: q.offer.priceAmount, before, first, other, after }, ctx.profile);
  }),
};
