import { uniqueClientReference } from '../../../api/target-api.js';
import { Findings } from '../../../checks/findings.js';
import { describe, isOk } from '../_internal/answers.js';
import { bookableProducts, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** CERT-04: per open product, search → book → cancel, with the wallet debited by the quoted price and refunded in full. */
export const bookCancelCheck: PlanCheck = {
  id: 'CERT-04',
  area: 'wallet',
  title: 'Search, book and cancel in every open product; the wallet is debited and refunded',
  clause: 'SPEC §1 quote flow and prepaid wallet; §4 booking and cancellation',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const f = new Findings();
    const products = await bookableProducts(ctx);
    if (products.length === 0) {
      f.fail(`no open product has search criteria in the profile (open: ${(await ctx.products()).open.join(', ') || 'none'})`);
      return f.outcome('');
    }
    const done: string[] = [];
    for (const product of products) {
      const before = await readBalance(ctx, f, `${product}: balance before`);
      const { offer } = await searchOffer(ctx, f, product, `${product}: search`);
      if (!offer || before === undefined) continue;
      const book = await api.book(product, offer.quoteToken, freshKey(ctx, 'book'), {
        label: ctx.label(`${product}: book`),
        clientReference: uniqueClientReference(),
      });
      if (!f.expect(isOk(book) && book.bookingId !== undefined, `booking ${product} answered ${describe(book, profile)}, expected 2xx with a booking id`, book))
        continue;
      const charged = book.chargedAmount ?? offer.priceAmount;
      if (offer.priceAmount !== undefined && book.chargedAmount !== undefined) {
        f.expect(
          book.chargedAmount === offer.priceAmount,
          `booking ${product} charged ${book.chargedAmount}, but the quote locked ${offer.priceAmount} (${book.exchange.id})`,
          book,
        );
      }
      const afterBook = await readBalance(ctx, f, `${product}: balance after booking`);
      if (charged !== undefined && afterBook !== undefined) {
        f.expect(afterBook === before - charged, `after booking ${product} the balance is ${afterBook}, expected ${before} − ${charged} = ${before - charged}`);
      }
      const cancel = await cancelBooking(ctx, product, book.bookingId!, `${product}: cancel`);
      if (!f.expect(isOk(cancel), `cancelling the ${product} booking answered ${describe(cancel, profile)}, expected 2xx`, cancel)) continue;
      if (cancel.refundAmount !== undefined && charged !== undefined) {
        f.expect(
          cancel.refundAmount === charged,
          `cancelling the ${product} booking refunded ${cancel.refundAmount}, expected the full ${charged} (${cancel.exchange.id})`,
          cancel,
        );
      }
      const afterCancel = await readBalance(ctx, f, `${product}: balance after cancellation`);
      if (afterCancel !== undefined)
        f.expect(afterCancel === before, `after cancelling the ${product} booking the balance is ${afterCancel}, expected it back at ${before}`);
      done.push(`${product} (${charged ?? '?'} debited and refunded)`);
    }
    return f.outcome(`booked and cancelled: ${done.join(', ')}`);
  },
};
