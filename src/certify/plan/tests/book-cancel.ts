import { uniqueClientReference } from '../../../api/target-api.js';
import { describe, isOk, Judge } from '../_internal/judge.js';
import { bookableProducts, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { CertTest } from '../plan-types.js';

/** CERT-04: per open product, search → book → cancel, with the wallet debited by the quoted price and refunded in full. */
export const bookCancelTest: CertTest = {
  id: 'CERT-04',
  title: 'Search, book and cancel in every open product; the wallet is debited and refunded',
  clause: 'SPEC §1 quote flow and prepaid wallet; §4 booking and cancellation',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const j = new Judge();
    const products = await bookableProducts(ctx);
    if (products.length === 0) {
      j.fail(`no open product has search criteria in the profile (open: ${(await ctx.products()).open.join(', ') || 'none'})`);
      return j.outcome('');
    }
    const done: string[] = [];
    for (const product of products) {
      const before = await readBalance(ctx, j, `CERT-04 ${product}: balance before`);
      const { offer } = await searchOffer(ctx, j, product, `CERT-04 ${product}: search`);
      if (!offer || before === undefined) continue;
      const book = await api.book(product, offer.quoteToken, freshKey(ctx, 'book'), {
        label: `CERT-04 ${product}: book`,
        clientReference: uniqueClientReference(),
      });
      if (!j.expect(isOk(book) && book.bookingId !== undefined, `booking ${product} answered ${describe(book, profile)}, expected 2xx with a booking id`))
        continue;
      const charged = book.chargedAmount ?? offer.priceAmount;
      if (offer.priceAmount !== undefined && book.chargedAmount !== undefined) {
        j.expect(
          book.chargedAmount === offer.priceAmount,
          `booking ${product} charged ${book.chargedAmount}, but the quote locked ${offer.priceAmount} (${book.exchange.id})`,
        );
      }
      const afterBook = await readBalance(ctx, j, `CERT-04 ${product}: balance after booking`);
      if (charged !== undefined && afterBook !== undefined) {
        j.expect(afterBook === before - charged, `after booking ${product} the balance is ${afterBook}, expected ${before} − ${charged} = ${before - charged}`);
      }
      const cancel = await cancelBooking(ctx, product, book.bookingId!, `CERT-04 ${product}: cancel`);
      if (!j.expect(isOk(cancel), `cancelling the ${product} booking answered ${describe(cancel, profile)}, expected 2xx`)) continue;
      if (cancel.refundAmount !== undefined && charged !== undefined) {
        j.expect(
          cancel.refundAmount === charged,
          `cancelling the ${product} booking refunded ${cancel.refundAmount}, expected the full ${charged} (${cancel.exchange.id})`,
        );
      }
      const afterCancel = await readBalance(ctx, j, `CERT-04 ${product}: balance after cancellation`);
      if (afterCancel !== undefined)
        j.expect(afterCancel === before, `after cancelling the ${product} booking the balance is ${afterCancel}, expected it back at ${before}`);
      done.push(`${product} (${charged ?? '?'} debited and refunded)`);
    }
    return j.outcome(`booked and cancelled: ${done.join(', ')}`);
  },
};
