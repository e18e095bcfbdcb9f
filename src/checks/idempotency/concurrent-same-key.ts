import type { Profile } from '../../profile/index.js';
import { withFreshQuote } from '../_internal/booking-steps.js';
import { codeOf, describeAnswer, isSuccess } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import { bookingBodyText, cancelQuietly, retryRateLimited, snapshotWallet, type WalletSnapshot } from '../_internal/flow-steps.js';
import type { ByteAnswer } from '../_internal/replay-judging.js';
import { judgeLedger } from '../_internal/wallet-judging.js';
import type { Check, CheckOutcome } from '../types.js';

/** How many requests ID-04 sends at once. */
const CONCURRENT_REQUESTS = 5;

/** What ID-04 saw: one booking fired several times at once with one key and body. */
interface ConcurrentObservations {
  price: number | undefined;
  before: WalletSnapshot;
  responses: Array<ByteAnswer & { bookingId?: string; chargedAmount?: number }>;
  after: WalletSnapshot;
}

/** Judges ID-04: exactly one booking is created and charged once; every other answer is in-use or a replay of it. */
export function judgeConcurrent(obs: ConcurrentObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const inUse = profile.errors.idempotency_key_in_use;
  const ok = obs.responses.filter(isSuccess);
  const ids = [...new Set(ok.map((r) => r.bookingId).filter((x): x is string => x !== undefined))];
  f.see(...obs.responses);
  f.expect(
    ids.length === 1,
    `${obs.responses.length} concurrent requests with one key created ${ids.length} bookings${ids.length ? ` (${ids.join(', ')})` : ''}, expected exactly one`,
    ...ok,
  );
  const original = ok[0];
  for (const [i, r] of obs.responses.entries()) {
    if (isSuccess(r)) {
      if (original && r !== original && !r.bytes.equals(original.bytes))
        f.fail(`request ${i + 1} of ${obs.responses.length} answered ${r.status} with a body other than the original's`, original, r);
      continue;
    }
    if (r.status === inUse.status && codeOf(r, profile) === inUse.code) continue;
    f.fail(
      `request ${i + 1} of ${obs.responses.length} with the same key and body was executed (answered ${describeAnswer(r, profile)}), expected ${inUse.status} ${inUse.code} or a replay`,
      r,
    );
  }
  const id = ids[0];
  if (ids.length === 1 && id !== undefined) {
    const charged = original?.chargedAmount ?? obs.price;
    judgeLedger(f, obs.before, obs.after, { debits: [{ bookingId: id, amount: charged, what: 'concurrent bookings with one key' }] }, profile);
  }
  return f.outcome(
    `${obs.responses.length} concurrent requests with one key made one booking ${String(id)}, charged once; the others were in-use refusals or replays`,
  );
}

/** ID-04: concurrent requests with one key execute once. */
export const concurrentSameKeyCheck: Check = {
  id: 'ID-04',
  title: 'Concurrent requests with one key and body create one booking, charged once',
  area: 'idempotency',
  clause: 'SPEC §4: a retried request cannot book twice / REF §7: same key while the first is executing → 409 IDEMPOTENCY_KEY_IN_USE',
  needs: ['open-product'],
  uses: { requests: { read: 14, write: 6 } },
  run: withFreshQuote(async (ctx, api, q) => {
    const key = ctx.unique('idem');
    const body = bookingBodyText(ctx.profile, q.offer.quoteToken, ctx.unique('ref'));
    // Open one connection per request first, so that the bookings leave together instead of queuing behind connection set-up.
    await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, (_, i) => api.account({ label: ctx.label(`warm-up ${i + 1}`) })));
    const before = await snapshotWallet(ctx, api, 'before');
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT_REQUESTS }, (_, i) =>
        retryRateLimited(ctx, () => api.book(q.product, q.offer.quoteToken, key, { label: ctx.label(`concurrent booking ${i + 1}`), body })),
      ),
    );
    const after = await snapshotWallet(ctx, api, 'after');
    for (const id of new Set(responses.map((r) => r.bookingId))) await cancelQuietly(ctx, api, q.product, id);
    return judgeConcurrent({ price: q.offer.priceAmount, before, responses, after }, ctx.profile);
  }),
};
