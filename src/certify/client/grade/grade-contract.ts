import { CLIENT_ITEMS } from '../client-plan.js';
import { ok, plural, productOf, type GradedItem } from '../_internal/facts.js';
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
export function gradeContract(requests: readonly ObservedRequest[]): GradedItem {
  const item = CLIENT_ITEMS.contract;
  const i = requests.findIndex((r) => r.method === 'GET' && r.path === '/v1/account' && ok(r.status));
  if (i === -1) return { item, verdict: 'FAIL', message: 'the client never read GET /v1/account, so it cannot know which products are closed', evidence: [] };
  const account = requests[i]!;
  const closed = closedProducts(account);
  const violations = requests.slice(i + 1).filter((r) => {
    const p = productOf(r.path);
    return p !== undefined && closed.includes(p);
  });
  const details = { closed_products: closed, requests_to_closed: violations.length };
  if (violations.length > 0) {
    const first = violations[0]!;
    return {
      item,
      verdict: 'FAIL',
      message: `${plural(violations.length, 'request')} to a closed product after GET /v1/account; first: ${first.method} ${first.path} (${first.status})`,
      evidence: [account.id, ...violations.slice(0, 10).map((r) => r.id)],
      details,
    };
  }
  return {
    item,
    verdict: 'PASS',
    message: closed.length > 0 ? `read GET /v1/account and sent nothing to ${closed.join(', ')}` : 'read GET /v1/account; no product is closed',
    evidence: [account.id],
    details,
  };
}
