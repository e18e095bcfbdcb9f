import { uniqueClientReference } from '../../../api/target-api.js';
import { Findings } from '../../../checks/findings.js';
import { describe, isOk } from '../_internal/answers.js';
import { bookableProducts, bookingBody, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** CERT-05: a booking retried with the same Idempotency-Key and body replays the original response byte for byte and charges once. */
export const idempotentRetryCheck: PlanCheck = {
  id: 'CERT-05',
  area: 'idempotency',
  title: 'An idempotent retry replays the original booking and charges once',
  clause: 'SPEC §4 idempotency: same key and body replay the original response; a retry cannot book twice',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const f = new Findings();
    const product = (await bookableProducts(ctx))[0];
    if (product === undefined) {
      f.fail('no open product to book');
      return f.outcome('');
    }
    const before = await readBalance(ctx, f, 'balance before');
    const { offer } = await searchOffer(ctx, f, product, `${product}: search`);
    if (!offer || before === undefined) return f.outcome('');
    const key = freshKey(ctx, 'retry');
    const body = bookingBody(ctx, offer.quoteToken, uniqueClientReference());
    const first = await api.book(product, offer.quoteToken, key, { label: ctx.label('booking'), body });
    if (!f.expect(isOk(first) && first.bookingId !== undefined, `the booking answered ${describe(first, profile)}, expected 2xx with a booking id`, first))
      return f.outcome('');
    const again = await api.book(product, offer.quoteToken, key, { label: ctx.label('same key, same body'), body });
    f.expect(again.status === first.status, `the retry answered ${describe(again, profile)}, expected the original ${first.status} replayed`, first, again);
    f.expect(
      Buffer.compare(again.bytes, first.bytes) === 0,
      `the retry's body differs from the original's (${first.exchange.id} vs ${again.exchange.id}): not a byte-identical replay`,
      first,
      again,
    );
    const marker = again.headers[profile.headers.idempotent_replayed.toLowerCase()];
    // Not a broken promise: a fact worth reading beside the verdict.
    const remark =
      marker !== profile.values.replayed_true ? ` (the replay carries no ${profile.headers.idempotent_replayed}: ${profile.values.replayed_true} header)` : '';
    const charged = first.chargedAmount ?? offer.priceAmount;
    const after = await readBalance(ctx, f, 'balance after the retry');
    if (charged !== undefined && after !== undefined) {
      f.expect(
        after === before - charged,
        `after a booking and its retry the balance is ${after}, expected ${before} − ${charged} = ${before - charged} (charged once)`,
      );
    }
    const cancel = await cancelBooking(ctx, product, first.bookingId!, 'cancel (refund)');
    f.expect(isOk(cancel), `cancelling the booking answered ${describe(cancel, profile)}, expected 2xx`, cancel);
    return f.outcome(
      `the retry with key ${key} replayed ${first.status} byte for byte (${again.bytes.length} bytes) and the wallet was charged once (${charged ?? '?'})${remark}`,
    );
  },
};
