import type { ApiResponse, Offer, TargetApi } from '../../api/types.js';
import type { CheckContext, CheckOutcome } from '../types.js';
import { skipped } from '../findings.js';
import { cheapest, productsToSearch, retryRateLimited, searchProduct, snapshotWallet, type WalletSnapshot } from './flow-steps.js';

/** A fresh quote of an open product of agency `index`, with the search that gave it. */
interface FreshQuote {
  product: string;
  search: ApiResponse & { offers: Offer[] };
  offer: Offer | undefined;
}

/** Searches the first open product of agency `index` and takes its cheapest offer. */
export async function freshQuote(ctx: CheckContext, index = 0): Promise<FreshQuote | undefined> {
  const products = await productsToSearch(ctx, index);
  const product = products[0];
  if (product === undefined) return undefined;
  const search = await searchProduct(ctx, ctx.api(index), product, `search ${product}`);
  return { product, search, offer: cheapest(search.offers) };
}

/** A fresh quote with an offer to book. */
type BookableQuote = FreshQuote & { offer: Offer };

/**
 * The `run` of a check that books: it gets agency 0's API and a fresh quote
 * of its first open product, or is skipped when no open product gives one.
 */
export function withFreshQuote(
  run: (ctx: CheckContext, api: TargetApi, q: BookableQuote) => Promise<CheckOutcome>,
): (ctx: CheckContext) => Promise<CheckOutcome> {
  return async (ctx) => {
    const api = ctx.api(0);
    const q = await freshQuote(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to book', q?.search);
    return run(ctx, api, { ...q, offer: q.offer });
  };
}

/**
 * A fresh quote of agency `index` and its wallet before anything is booked
 * (labelled `before`), read at once: a search moves no money, so the wallet
 * read beside it is the one before the booking, a round trip sooner.
 */
export async function freshQuoteAndWallet(ctx: CheckContext, index = 0): Promise<[FreshQuote | undefined, WalletSnapshot]> {
  return Promise.all([freshQuote(ctx, index), snapshotWallet(ctx, ctx.api(index), 'before')]);
}

/** {@link withFreshQuote} for a check that also needs the wallet before it books ({@link freshQuoteAndWallet}). */
export function withFreshQuoteAndWallet(
  run: (ctx: CheckContext, api: TargetApi, q: BookableQuote, before: WalletSnapshot) => Promise<CheckOutcome>,
): (ctx: CheckContext) => Promise<CheckOutcome> {
  return async (ctx) => {
    const [q, before] = await freshQuoteAndWallet(ctx);
    if (!q?.offer) return skipped('no open product gave a quote to book', q?.search);
    return run(ctx, ctx.api(0), { ...q, offer: q.offer }, before);
  };
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
