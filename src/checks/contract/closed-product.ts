import { fillPath } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import { bookingBodyText } from '../_internal/flow-steps.js';
import type { Check, CheckContext, CheckOutcome } from '../types.js';

/** One endpoint of a closed product and its answer. */
interface ClosedEndpointCase {
  product: string;
  endpoint: string;
  res: Answer;
}

/** Judges CT-02: every endpoint of every closed product answers module_not_enabled. */
export function judgeClosedProduct(cases: readonly ClosedEndpointCase[], profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors.module_not_enabled;
  for (const c of cases) f.check(errorMismatch(c.res, e, `${c.endpoint} of closed product ${c.product}`, profile), c.res);
  const products = [...new Set(cases.map((c) => c.product))];
  return f.outcome(`${cases.length} endpoints of closed products ${products.join(', ')} answered ${e.status} ${e.code}`);
}

/** The path prefix of a product's endpoints (`/{product}` filled in), from the search path template. */
export function productPrefix(profile: Profile, product: string): string | undefined {
  const at = profile.operations.search.path.indexOf('{product}');
  if (at < 0) return undefined;
  return fillPath(profile.operations.search.path.slice(0, at + '{product}'.length), { product });
}

/** Sends every endpoint of `product` as agency `index`, all at once: each is a refusal on its own, none depends on another. */
async function probeProduct(ctx: CheckContext, index: number, product: string): Promise<ClosedEndpointCase[]> {
  const api = ctx.api(index);
  const fakeBooking = ctx.unique('bk');
  const label = (what: string) => ctx.label(`${what} of closed ${product}`);
  const body = bookingBodyText(ctx.profile, `qt_${ctx.unique('qt')}`, ctx.unique('ref'));
  const probes: Array<[string, () => ReturnType<typeof api.raw>]> = [
    ['search', () => api.search(product, ctx.profile.search_criteria[product] ?? {}, { label: label('search') })],
    ['create booking', () => api.book(product, '', ctx.unique('idem'), { label: label('create booking'), body })],
    ['get booking', () => api.getBooking(product, fakeBooking, { label: label('get booking') })],
    ['cancel booking', () => api.cancel(product, fakeBooking, ctx.unique('idem'), { label: label('cancel booking') })],
  ];
  const prefix = productPrefix(ctx.profile, product);
  if (prefix !== undefined) {
    const sub = `${prefix}/${encodeURIComponent(ctx.unique('any'))}`;
    probes.push([`GET ${sub}`, () => api.raw('GET', sub, undefined, { label: label('arbitrary sub-path') })]);
  }
  return Promise.all(probes.map(async ([endpoint, send]) => ({ product, endpoint, res: await send() })));
}

/** CT-02: every endpoint of a product outside the contract answers 403 MODULE_NOT_ENABLED. */
export const closedProductCheck: Check = {
  id: 'CT-02',
  title: 'Every endpoint of a product outside the contract answers module-not-enabled',
  area: 'contract',
  clause: 'SPEC §1/§4: a product outside the contract answers 403 MODULE_NOT_ENABLED on all of its endpoints / REF §5',
  needs: ['closed-product'],
  uses: {
    // For one closed product (it probes each: the runner binds it where they are fewest, one on the reference agencies).
    requests: { read: 5, write: 3 },
    // A closed product refuses every endpoint, bookings included: no wallet.
    touches: ['0:read', '0:write'],
  },
  async run(ctx) {
    for (let i = 0; i < ctx.agencies.length; i++) {
      const { closed, response } = await ctx.api(i).openProducts({ label: ctx.label('open products') });
      if (response.status < 200 || response.status >= 300) continue;
      if (closed.length === 0) continue;
      const cases = (await Promise.all(closed.map((product) => probeProduct(ctx, i, product)))).flat();
      return judgeClosedProduct(cases, ctx.profile);
    }
    return skipped('no agency has a product outside its contract');
  },
};
