import { getArray, getField, getString } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What CT-01 saw: the account response. */
interface AccountObservations {
  account: Answer;
}

/** Judges CT-01: the account answers and lists products, each a known one with a boolean open flag, at least one open. */
export function judgeAccountProducts(obs: AccountObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const fl = profile.fields;
  if (!f.check(successMismatch(obs.account, 'account request', profile), obs.account)) return f.outcome('');
  const items = getArray(obs.account.json, fl.account_products);
  if (!f.expect(items.length > 0, `account lists no products at ${fl.account_products}`, obs.account)) return f.outcome('');
  const open: string[] = [];
  for (const item of items) {
    const name = getString(item, fl.account_product_name);
    const enabled = getField(item, fl.account_product_enabled);
    if (name === undefined) f.fail(`an account product item has no name at ${fl.account_product_name}`, obs.account);
    else if (!profile.products.includes(name)) f.fail(`account lists product "${name}", which is not one of ${profile.products.join(', ')}`, obs.account);
    if (typeof enabled !== 'boolean') f.fail(`account product "${String(name)}" has no boolean at ${fl.account_product_enabled}`, obs.account);
    if (name !== undefined && enabled === true) open.push(name);
  }
  f.expect(open.length > 0, 'account reports no open product', obs.account);
  return f.outcome(`account reports open products: ${open.join(', ')}`, { open });
}

/** CT-01: the account reports which products are open. */
export const accountProductsCheck: Check = {
  id: 'CT-01',
  title: 'The account reports which products are open under the contract',
  area: 'contract',
  clause: 'SPEC §1/§4: GET /v1/account lists what is open under the contract / REF §5',
  needs: [],
  uses: { requests: { read: 2, write: 0 }, touches: ['0:read'] },
  async run(ctx) {
    const account = await ctx.api(0).account({ label: ctx.label('account') });
    return judgeAccountProducts({ account }, ctx.profile);
  },
};
