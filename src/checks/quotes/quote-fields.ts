import { getArray } from '../../api/fields.js';
import type { Offer } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { productsToSearch, searchProduct } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** Leeway for clocks of harness and target that differ a little, ms. */
const CLOCK_LEEWAY_MS = 5_000;

/** What QT-01 saw: searches of open products. */
interface QuoteFieldsObservations {
  searches: Array<{ product: string; res: Answer & { offers: Offer[] } }>;
}

/** Judges QT-01: every search result carries a quote token and an expiry in the future, within the quote lifetime. */
export function judgeQuoteFields(obs: QuoteFieldsObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const lifetimeMs = profile.quotes.lifetime_s * 1000;
  let count = 0;
  for (const { product, res } of obs.searches) {
    if (!f.check(successMismatch(res, `search of ${product}`, profile), res)) continue;
    const results = getArray(res.json, profile.fields.search_results);
    f.expect(results.length > 0, `search of ${product} returned no results at ${profile.fields.search_results}`, res);
    f.expect(
      res.offers.length === results.length,
      `${results.length - res.offers.length} of ${results.length} ${product} results carry no quote token at ${profile.fields.result_quote_token}`,
      res,
    );
    const tokens = new Set<string>();
    const sentAt = res.exchange.startedAt;
    const latest = sentAt + res.exchange.durationMs + lifetimeMs + CLOCK_LEEWAY_MS;
    for (const o of res.offers) {
      count++;
      f.expect(o.quoteToken.length > 0, `a ${product} result has an empty quote token`, res);
      if (tokens.has(o.quoteToken)) f.fail(`two ${product} results share quote token ${o.quoteToken}`, res);
      tokens.add(o.quoteToken);
      const at = o.quoteExpiresAt === undefined ? NaN : Date.parse(o.quoteExpiresAt);
      if (
        !f.expect(
          Number.isFinite(at),
          `${product} result ${String(o.resultId)} has quote expiry ${JSON.stringify(o.quoteExpiresAt)} that is not a date-time`,
          res,
        )
      )
        continue;
      f.expect(
        at > sentAt - CLOCK_LEEWAY_MS,
        `${product} result ${String(o.resultId)} quote expires at ${o.quoteExpiresAt}, before the search was sent (${new Date(sentAt).toISOString()})`,
        res,
      );
      f.expect(
        at <= latest,
        `${product} result ${String(o.resultId)} quote expires at ${o.quoteExpiresAt}, beyond the ${profile.quotes.lifetime_s} s lifetime`,
        res,
      );
    }
  }
  return f.outcome(`all ${count} search results carry a quote token and an expiry within ${profile.quotes.lifetime_s} s`);
}

/** QT-01: every search result carries quote_token and quote_expires_at. */
export const quoteFieldsCheck: Check = {
  id: 'QT-01',
  title: 'Every search result carries a quote token and a future expiry within the lifetime',
  area: 'quotes',
  clause: 'SPEC §1/§2: every search returns priced results, each with a quote_token that locks the price until quote_expires_at / REF §6',
  needs: ['open-product'],
  uses: {
    requests: { read: 5, write: 0 },
    // Searches are POSTs: they count in the write bucket.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const products = await productsToSearch(ctx, 0);
    if (products.length === 0) return skipped('the primary agency has no open product with search criteria in the profile');
    const api = ctx.api(0);
    const searches: QuoteFieldsObservations['searches'] = [];
    for (const product of products) searches.push({ product, res: await searchProduct(ctx, api, product, `search ${product}`) });
    return judgeQuoteFields({ searches }, ctx.profile);
  },
};
