import { getArray, getNumber, getString } from '../../../api/fields.js';
import { Findings } from '../../../checks/findings.js';
import { describe, isOk } from '../_internal/answers.js';
import type { PlanCheck } from '../plan-types.js';

/** CERT-02: the account lists the products of the contract. */
export const accountScopeCheck: PlanCheck = {
  id: 'CERT-02',
  area: 'contract',
  title: 'The account lists the products open under the contract',
  clause: 'SPEC §1 GET /v1/account lists what is open under the contract',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const fields = profile.fields;
    const f = new Findings();
    const { open, closed, response } = await api.openProducts({ label: ctx.label('account') });
    if (!f.expect(isOk(response), `GET of the account answered ${describe(response, profile)}, expected 2xx`, response)) return f.outcome('');
    ctx.state.products = { open, closed };
    const listed = getArray(response.json, fields.account_products)
      .map((item) => getString(item, fields.account_product_name))
      .filter((p): p is string => p !== undefined);
    f.expect(listed.length > 0, `the account response lists no products at ${fields.account_products} (${response.exchange.id})`, response);
    f.expect(open.length > 0, `no product is open for ${ctx.agency.id} (${response.exchange.id}): nothing can be certified`, response);
    const read = getNumber(response.json, fields.account_read_limit);
    const write = getNumber(response.json, fields.account_write_limit);
    ctx.state.accountLimits = { ...(read !== undefined ? { read } : {}), ...(write !== undefined ? { write } : {}) };
    const unknown = listed.filter((p) => !profile.products.includes(p));
    // Not a broken promise: a fact worth reading beside the verdict.
    const remark = unknown.length > 0 ? ` (products the profile does not know: ${unknown.join(', ')})` : '';
    return f.outcome(`open: ${open.join(', ')}; closed: ${closed.length > 0 ? closed.join(', ') : 'none'} (${response.exchange.id})${remark}`);
  },
};
