import { getArray, getNumber, getString } from '../../../api/fields.js';
import { describe, isOk, Judge } from '../_internal/judge.js';
import type { CertTest } from '../plan-types.js';

/** CERT-02: the account lists the products of the contract. */
export const accountScopeTest: CertTest = {
  id: 'CERT-02',
  title: 'The account lists the products open under the contract',
  clause: 'SPEC §1 GET /v1/account lists what is open under the contract',
  required: true,
  async run(ctx) {
    const { profile, api } = ctx;
    const f = profile.fields;
    const j = new Judge();
    const { open, closed, response } = await api.openProducts({ label: 'CERT-02 account' });
    if (!j.expect(isOk(response), `GET of the account answered ${describe(response, profile)}, expected 2xx`)) return j.outcome('');
    ctx.state.products = { open, closed };
    const listed = getArray(response.json, f.account_products)
      .map((item) => getString(item, f.account_product_name))
      .filter((p): p is string => p !== undefined);
    j.expect(listed.length > 0, `the account response lists no products at ${f.account_products} (${response.exchange.id})`);
    j.expect(open.length > 0, `no product is open for ${ctx.agency.id} (${response.exchange.id}): nothing can be certified`);
    const read = getNumber(response.json, f.account_read_limit);
    const write = getNumber(response.json, f.account_write_limit);
    ctx.state.accountLimits = { ...(read !== undefined ? { read } : {}), ...(write !== undefined ? { write } : {}) };
    const unknown = listed.filter((p) => !profile.products.includes(p));
    if (unknown.length > 0) j.remark(`products the profile does not know: ${unknown.join(', ')}`);
    return j.outcome(`open: ${open.join(', ')}; closed: ${closed.length > 0 ? closed.join(', ') : 'none'} (${response.exchange.id})`);
  },
};
