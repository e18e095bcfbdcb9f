import { quoteLifetimeS } from '../../../api/answer-time.js';
import { uniqueClientReference } from '../../../api/target-api.js';
import { overMaxWait } from '../../../clock/max-wait.js';
import { Findings, skipped } from '../../../checks/findings.js';
import { describe, isError } from '../_internal/answers.js';
import { bookableProducts, cancelBooking, freshKey, readBalance, searchOffer } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** Real time waited past the quote's expiry, covering clock drift between harness and service. */
const EXPIRY_MARGIN_MS = 1_000;

/**
 * CERT-07: a quote redeemed after it expired is refused and charges nothing;
 * not run when the lifetime the service gives its quotes (learned from its
 * search answer, as a run learns it; the profile's when the answer says
 * none) is longer than the allowed wait (`--max-wait`).
 */
export const quoteExpiryCheck: PlanCheck = {
  id: 'CERT-07',
  area: 'quotes',
  title: 'An expired quote is refused and charges nothing',
  clause: 'SPEC §1 the quote_token locks the price until quote_expires_at',
  required: false,
  async run(ctx) {
    const { profile, api } = ctx;
    const f = new Findings();
    const product = (await bookableProducts(ctx))[0];
    if (product === undefined) {
      f.fail('no open product to book');
      return f.outcome('');
    }
    const sentAt = ctx.clock.now();
    const { res, offer } = await searchOffer(ctx, f, product, `${product}: search`);
    if (!offer) return f.outcome('');
    // The lifetime the service gives its quotes, learned from its answer as a run learns it: the profile may be wrong about it.
    const learned = quoteLifetimeS(offer.quoteExpiresAt, res, ctx.clock.now());
    const lifetimeS = learned ?? profile.quotes.lifetime_s;
    const source =
      learned === undefined
        ? 'profile quotes.lifetime_s: the answer gave no quote_expires_at to learn it from'
        : `quote_expires_at minus the time of the answer${learned === profile.quotes.lifetime_s ? '' : `; the profile says ${profile.quotes.lifetime_s} s`}`;
    // The run's rule for long waits in real time; a certification stands for real time whatever clock the harness's own tests move.
    const over = overMaxWait({ kind: 'real' }, lifetimeS * 1000, ctx.maxWaitMs, 'the quote to expire');
    if (over) return skipped(`not run: quotes live ${lifetimeS} s (${source}); it ${over}`, res);
    const stated = offer.quoteExpiresAt === undefined ? NaN : Date.parse(offer.quoteExpiresAt);
    const until = Number.isFinite(stated) ? stated : sentAt + lifetimeS * 1000;
    const waitMs = Math.max(until - ctx.clock.now(), 0) + EXPIRY_MARGIN_MS;
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
      `a quote redeemed ${(waitMs / 1000).toFixed(1)} s after the search (lifetime ${lifetimeS} s) was refused with ${expected.status} ${expected.code}, nothing charged`,
    );
  },
};
