import { Findings } from '../../../checks/findings.js';
import type { ClientCheck } from '../client-check.js';
import { ok, plural, productOf } from '../_internal/facts.js';
import type { ObservedRequest } from '../observed.js';

function closedProducts(r: ObservedRequest): string[] {
  try {
    const v = JSON.parse(r.responseBody) as { products?: Array<{ product?: unknown; enabled?: unknown }> };
    return (v.products ?? []).filter((p) => p.enabled === false && typeof p.product === 'string').map((p) => p.product as string);
  } catch {
    return [];
  }
}

/**
 * CC-07: the client must read `GET /v1/account`, and after that send nothing
 * to a product the account lists as closed.
 */
export const contractCheck: ClientCheck = {
  id: 'CC-07',
  slug: 'contract-scope',
  title: 'no request to a product that GET /v1/account says is closed',
  area: 'contract',
  clause: 'SPEC §1 contract scope, GET /v1/account',
  run({ mine: requests }) {
    const f = new Findings();
    const i = requests.findIndex((r) => r.method === 'GET' && r.path === '/v1/account' && ok(r.status));
    if (i === -1) return f.fail('the client never read GET /v1/account, so it cannot know which products are closed').outcome('');
    const account = requests[i]!;
    const closed = closedProducts(account);
    const violations = requests.slice(i + 1).filter((r) => {
      const p = productOf(r.path);
      return p !== undefined && closed.includes(p);
    });
    const details = { closed_products: closed, requests_to_closed: violations.length };
    f.see(account);
    if (violations.length > 0) {
      const first = violations[0]!;
      f.fail(
        `${plural(violations.length, 'request')} to a closed product after GET /v1/account; first: ${first.method} ${first.path} (${first.status})`,
        account,
        ...violations.slice(0, 10),
      );
    }
    return f.outcome(
      closed.length > 0 ? `read GET /v1/account and sent nothing to ${closed.join(', ')}` : 'read GET /v1/account; no product is closed',
      details,
    );
  },
};
