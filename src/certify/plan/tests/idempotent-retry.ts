import { uniqueClientReference } from '../../../api/target-api.js';
import { describe, isOk, Judge } from '../_internal/judge.js';
import { bookableProducts, bookingBody, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { CertTest } from '../plan-types.js';

/** CERT-05: a booking retried with the same Idempotency-Key and body replays the original response byte for byte and charges once. */
export const idempotentRetryTest: CertTest = {
  id: 'CERT-05',
  title: 'An idempotent retry replays the original booking and charges once',
  clause: 'SPEC §4 idempotency: same key and body replay the original response; a retry cannot book twice',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const j = new Judge();
    const product = (await bookableProducts(ctx))[0];
    if (product === undefined) {
      j.fail('no open product to book');
      return j.outcome('');
    }
    const before = await readBalance(ctx, j, 'CERT-05 balance before');
    const { offer } = await searchOffer(ctx, j, product, `CERT-05 ${product}: search`);
    if (!offer || before === undefined) return j.outcome('');
    const key = freshKey(ctx, 'retry');
    const body = bookingBody(ctx, offer.quoteToken, uniqueClientReference());
    const first = await api.book(product, offer.quoteToken, key, { label: 'CERT-05 booking', body });
    if (!j.expect(isOk(first) && first.bookingId !== undefined, `the booking answered ${describe(first, profile)}, expected 2xx with a booking id`))
      return j.outcome('');
    const again = await api.book(product, offer.quoteToken, key, { label: 'CERT-05 same key, same body', body });
    j.expect(again.status === first.status, `the retry answered ${describe(again, profile)}, expected the original ${first.status} replayed`);
    j.expect(
      Buffer.compare(again.bytes, first.bytes) === 0,
      `the retry's body differs from the original's (${first.exchange.id} vs ${again.exchange.id}): not a byte-identical replay`,
    );
    const marker = again.headers[profile.headers.idempotent_replayed.toLowerCase()];
    if (marker !== profile.values.replayed_true)
      j.remark(`the replay carries no ${profile.headers.idempotent_replayed}: ${profile.values.replayed_true} header`);
    const charged = first.chargedAmount ?? offer.priceAmount;
    const after = await readBalance(ctx, j, 'CERT-05 balance after the retry');
    if (charged !== undefined && after !== undefined) {
      j.expect(
        after === before - charged,
        `after a booking and its retry the balance is ${after}, expected ${before} − ${charged} = ${before - charged} (charged once)`,
      );
    }
    const cancel = await cancelBooking(ctx, product, first.bookingId!, 'CERT-05 cancel (refund)');
    j.expect(isOk(cancel), `cancelling the booking answered ${describe(cancel, profile)}, expected 2xx`);
    return j.outcome(
      `the retry with key ${key} replayed ${first.status} byte for byte (${again.bytes.length} bytes) and the wallet was charged once (${charged ?? '?'})`,
    );
  },
};
