import type { ApiResponse, Offer, TargetApi } from '../../api/types.js';
import type { CheckContext } from '../types.js';
import { cheapest, retryRateLimited, searchableProducts, searchProduct } from './flow-steps.js';

/** A fresh quote of an open product of agency `index`, with the search that gave it. */
export interface FreshQuote {
  product: string;
  search: ApiResponse & { offers: Offer[] };
  offer: Offer | undefined;
}

/** Searches the first open product of agency `index` and takes its cheapest offer. */
export async function freshQuote(ctx: CheckContext, index = 0): Promise<FreshQuote | undefined> {
  const { products } = await searchableProducts(ctx, index);
  const product = products[0];
  if (product === undefined) return undefined;
  const search = await searchProduct(ctx, ctx.api(index), product, `search ${product}`);
  return { product, search, offer: cheapest(search.offers) };
}

/** Books a quote with a fresh idempotency key and client reference (retrying only a rate-limit refusal, which executes nothing); `label` is prefixed with the check's id. */
export function bookFresh(ctx: CheckContext, api: TargetApi, product: string, quoteToken: string, label: string, clientReference?: string) {
  const key = ctx.unique('idem');
  const ref = clientReference ?? ctx.unique('ref');
  return retryRateLimited(ctx, () => api.book(product, quoteToken, key, { label: ctx.label(label), clientReference: ref }));
}

/** Cancels a booking with a fresh idempotency key; `label` is prefixed with the check's id. */
export function cancelFresh(ctx: CheckContext, api: TargetApi, product: string, bookingId: string, label: string) {
  const key = ctx.unique('idem');
  return retryRateLimited(ctx, () => api.cancel(product, bookingId, key, { label: ctx.label(label) }));
}
