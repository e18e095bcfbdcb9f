import { uniqueClientReference } from '../../../api/target-api.js';
import { Findings, skipped } from '../../../checks/findings.js';
import { describe, isError } from '../_internal/answers.js';
import { bookableProducts, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** Real time waited past the quote's expiry, covering clock drift between harness and service. */
const EXPIRY_MARGIN_MS = 1_000;

/** CERT-07: a quote redeemed after it expired is refused and charges nothing; not run when its lifetime is longer than the allowed wait. */
export const quoteExpiryCheck: PlanCheck = {
  id: 'CERT-07',
  area: 'quotes',
  title: 'An expired quote is refused and charges nothing',
  clause: 'SPEC §1 the quote_token locks the price until quote_expires_at',
  required: false,
  async run(ctx) {
    const { profile, api } = ctx;
    const lifetimeMs = profile.quotes.lifetime_s * 1000;
    const maxS = Math.round(ctx.maxWaitMs / 1000);
    if (lifetimeMs > ctx.maxWaitMs) {
      return skipped(
        `not run: quotes live ${profile.quotes.lifetime_s} s (profile quotes.lifetime_s), longer than the longest wait allowed (${maxS} s, --max-wait)`,
      );
    }
    const f = new Findings();
    const product = (await bookableProducts(ctx))[0];
    if (product === undefined) {
      f.fail('no open product to book');
      return f.outcome('');
    }
    const sentAt = ctx.clock.now();
    const { offer } = await searchOffer(ctx, f, product, `${product}: search`);
    if (!offer) return f.outcome('');
    const stated = offer.quoteExpiresAt === undefined ? NaN : Date.parse(offer.quoteExpiresAt);
    const byProfile = sentAt + lifetimeMs - ctx.clock.now();
    const byQuote = Number.isFinite(stated) ? stated - ctx.clock.now() : byProfile;
    const waitMs = Math.max(byProfile, byQuote, 0) + EXPIRY_MARGIN_MS;
    if (waitMs > ctx.maxWaitMs + EXPIRY_MARGIN_MS) {
      return skipped(
        `not run: the quote expires at ${offer.quoteExpiresAt ?? '?'}, ${Math.round(waitMs / 1000)} s away, longer than the longest wait allowed (${maxS} s, --max-wait)`,
      );
    }
    const before = await readBalance(ctx, f, 'balance before');
    ctx.log(`waiting ${(waitMs / 1000).toFixed(1)} s for the quote to expire`);
    await ctx.clock.wait(waitMs);
    const expected = profile.errors.quote_expired;
    const book = await api.book(product, offer.quoteToken, freshKey(ctx, 'expired'), {
      label: ctx.label(`${product}: book the expired quote`),
      clientReference: uniqueClientReference(),
    });
    f.expect(
      isError(book, expected, profile),
      `booking a quote that expired at ${offer.quoteExpiresAt ?? '?'} answered ${describe(book, profile)}, expected ${expected.status} ${expected.code}`,
      book,
    );
    if (book.status >= 200 && book.status < 300 && book.bookingId) await cancelBooking(ctx, product, book.bookingId, 'cancel the wrongly accepted booking');
    const after = await readBalance(ctx, f, 'balance after');
    if (before !== undefined && after !== undefined && !f.failed)
      f.expect(after === before, `the refused booking changed the balance from ${before} to ${after}`);
    return f.outcome(
      `a quote redeemed ${(waitMs / 1000).toFixed(1)} s after the search (lifetime ${profile.quotes.lifetime_s} s) was refused with ${expected.status} ${expected.code}, nothing charged`,
    );
  },
};
