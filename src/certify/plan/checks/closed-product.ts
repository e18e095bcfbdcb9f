import { Findings, skipped } from '../../../checks/findings.js';
import { describe, isError } from '../_internal/answers.js';
import { freshKey } from '../_internal/steps.js';
import type { PlanCheck } from '../plan-types.js';

/** CERT-03: every endpoint of a product outside the contract answers module_not_enabled. */
export const closedProductCheck: PlanCheck = {
  id: 'CERT-03',
  area: 'contract',
  title: 'A product outside the contract is refused on its endpoints',
  clause: 'SPEC §1, §4: a product outside the contract answers 403 MODULE_NOT_ENABLED on all its endpoints',
  required: false,
  async run(ctx) {
    const { profile, api } = ctx;
    const { closed } = await ctx.products();
    if (closed.length === 0) return skipped(`not run: every product is open for ${ctx.agency.id}, so there is no closed product to try`);
    const expected = profile.errors.module_not_enabled;
    const f = new Findings();
    let tried = 0;
    for (const product of closed) {
      const search = await api.search(product, profile.search_criteria[product] ?? {}, { label: ctx.label(`search of closed ${product}`) });
      f.expect(
        isError(search, expected, profile),
        `search of closed ${product} answered ${describe(search, profile)}, expected ${expected.status} ${expected.code}`,
        search,
      );
      const get = await api.getBooking(product, 'bk_certify_probe', { label: ctx.label(`booking of closed ${product}`) });
      f.expect(
        isError(get, expected, profile),
        `GET of a booking of closed ${product} answered ${describe(get, profile)}, expected ${expected.status} ${expected.code}`,
        get,
      );
      const book = await api.book(product, 'qt_certify_probe', freshKey(ctx, 'closed'), { label: ctx.label(`booking on closed ${product}`) });
      f.expect(
        isError(book, expected, profile),
        `a booking on closed ${product} answered ${describe(book, profile)}, expected ${expected.status} ${expected.code}`,
        book,
      );
      tried += 3;
    }
    return f.outcome(`${tried} requests to ${closed.join(', ')} answered ${expected.status} ${expected.code}`);
  },
};
