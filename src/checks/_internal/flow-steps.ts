import { setTemplate } from '../../api/fields.js';
import type { ApiResponse, Offer, StatementEntry, TargetApi } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';
import { RunCacheKey } from '../run-cache.js';
import type { CheckContext } from '../types.js';
import { waitOutRefusals } from '../wait-out-refusals.js';

/** A wallet as read at one moment: balance and whole statement, with the exchanges that read them. */
export interface WalletSnapshot {
  balance: number | undefined;
  /** The balance's currency, as the balance answer names it: amounts are in its minor units. */
  currency?: string | undefined;
  balanceStatus: number;
  entries: StatementEntry[];
  /** Id of the newest statement entry, to find what came after. */
  newestId: string | undefined;
  /** Exchange ids of the balance and statement reads. */
  evidence: string[];
}

/** Sends `call`, waiting out a rate-limited answer (see {@link waitOutRefusals}). */
export function retryRateLimited<T extends ApiResponse>(ctx: CheckContext, call: () => Promise<T>): Promise<T> {
  return waitOutRefusals(ctx, call);
}

/** Reads balance and statement of an agency; `label` (e.g. `before`) is prefixed with the check's id. */
export async function snapshotWallet(ctx: CheckContext, api: TargetApi, label: string): Promise<WalletSnapshot> {
  // Two reads with nothing written between them: sent together, they cost one round trip, not two.
  const [balance, statement] = await Promise.all([
    retryRateLimited(ctx, () => api.balance({ label: ctx.label(`${label}: balance`) })),
    api.statement({ label: ctx.label(`${label}: statement`) }),
  ]);
  return {
    balance: balance.amount,
    currency: balance.currency,
    balanceStatus: balance.status,
    entries: statement.entries,
    newestId: statement.entries[0]?.id,
    evidence: [balance.exchange.id, ...statement.responses.map((r) => r.exchange.id)],
  };
}

/** The open products of agency `index` that the profile has search criteria for, with the account response. */
export async function searchableProducts(ctx: CheckContext, index = 0): Promise<{ products: string[]; closed: string[]; response: ApiResponse }> {
  const { open, closed, response } = await ctx.api(index).openProducts({ label: ctx.label('open products') });
  return { products: open.filter((p) => ctx.profile.search_criteria[p] !== undefined), closed, response };
}

/** The searchable products each agency's account announced, by agency id: a contract does not change within a run. */
const SEARCHABLE = new RunCacheKey<Map<string, string[]>>('searchable products by agency');

/**
 * The searchable open products of agency `index`, for a check that only needs
 * a product to search or book (not one that judges the account response): read
 * once per run and agency, so that each such check saves a round trip. An
 * account that did not answer 2xx is read again by the next check.
 */
export async function productsToSearch(ctx: CheckContext, index = 0): Promise<string[]> {
  const known = ctx.runCache.getOrCreate(SEARCHABLE, () => new Map<string, string[]>());
  const agency = ctx.agencies[index]?.id ?? `#${index}`;
  const cached = known.get(agency);
  if (cached) return cached;
  const { products, response } = await searchableProducts(ctx, index);
  if (response.status >= 200 && response.status < 300) known.set(agency, products);
  return products;
}

/** A search of `product` with the profile's criteria; `label` is prefixed with the check's id. */
export async function searchProduct(ctx: CheckContext, api: TargetApi, product: string, label: string): Promise<ApiResponse & { offers: Offer[] }> {
  return retryRateLimited(ctx, () => api.search(product, ctx.profile.search_criteria[product], { label: ctx.label(label) }));
}

/** The booking body of the profile for a quote and client reference, as sent bytes. */
export function bookingBodyText(profile: Profile, quoteToken: string, clientReference: string): string {
  return JSON.stringify(setTemplate(profile.booking_body, { quote_token: quoteToken, client_reference: clientReference }));
}

/** A fresh nonce within `[A-Za-z0-9_-]{16,64}` that never repeats across runs. */
export function uniqueNonce(ctx: CheckContext): string {
  const base = ctx.unique('n').replace(/[^A-Za-z0-9_-]/g, '_');
  const padded = base.length < 16 ? base + 'x'.repeat(16 - base.length) : base;
  return padded.slice(-64);
}

/** The cheapest offer of a search, if any carries a price. */
export function cheapest(offers: readonly Offer[]): Offer | undefined {
  let best: Offer | undefined;
  for (const o of offers) if (o.priceAmount !== undefined && (best?.priceAmount === undefined || o.priceAmount < best.priceAmount)) best = o;
  return best ?? offers[0];
}

/** Cancels a booking the check made, to give the money back; the outcome is not judged. */
export async function cancelQuietly(ctx: CheckContext, api: TargetApi, product: string, bookingId: string | undefined): Promise<void> {
  if (!bookingId) return;
  try {
    await retryRateLimited(ctx, () => api.cancel(product, bookingId, ctx.unique('idem'), { label: ctx.label('clean-up cancellation') }));
  } catch (err) {
    ctx.log(`clean-up cancellation of ${bookingId} failed: ${String(err)}`);
  }
}
