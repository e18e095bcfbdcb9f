import type { Offer } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { searchableProducts, searchProduct } from '../_internal/flow-steps.js';
import type { Check, CheckOutcome } from '../types.js';

/** A search of an open product and its answer. */
interface OpenSearchCase {
  product: string;
  res: Answer & { offers: Offer[] };
}

/** Judges CT-03: a search of every open product works and returns priced results. */
export function judgeOpenProducts(cases: readonly OpenSearchCase[], profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const c of cases) {
    if (f.check(successMismatch(c.res, `search of open product ${c.product}`, profile), c.res)) {
      f.expect(c.res.offers.length > 0, `search of open product ${c.product} returned no result with a quote token`, c.res);
    }
  }
  return f.outcome(`searches of open products ${cases.map((c) => c.product).join(', ')} answered with priced results`);
}

/** CT-03: products open under the contract work (no 403). */
export const openProductsCheck: Check = {
  id: 'CT-03',
  title: 'Every open product can be searched',
  area: 'contract',
  clause: 'SPEC §1: one API key covers every vertical of the contract; every search returns priced results',
  needs: ['open-product'],
  uses: {
    requests: { read: 5, write: 0 },
    // Searches are POSTs: they count in the write bucket.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    const { products } = await searchableProducts(ctx, 0);
    if (products.length === 0) return skipped('the primary agency has no open product with search criteria in the profile');
    const api = ctx.api(0);
    const cases: OpenSearchCase[] = [];
    for (const product of products) cases.push({ product, res: await searchProduct(ctx, api, product, `search ${product}`) });
    return judgeOpenProducts(cases, ctx.profile);
  },
};
