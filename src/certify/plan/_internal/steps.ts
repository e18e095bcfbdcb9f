import { setTemplate } from '../../../api/fields.js';
import type { ApiResponse, Offer } from '../../../api/types.js';
import type { Findings } from '../../../checks/findings.js';
import type { CertifyContext } from '../plan-types.js';
import { cheapest, describe, isOk } from './answers.js';

/** Open products the profile has search criteria for. */
export async function bookableProducts(ctx: CertifyContext): Promise<string[]> {
  const { open } = await ctx.products();
  return open.filter((p) => ctx.profile.search_criteria[p] !== undefined);
}

/** Searches `product` and picks the cheapest offer; records a problem when there is none. `label` is the exchange's, after the check's id. */
export async function searchOffer(ctx: CertifyContext, f: Findings, product: string, label: string): Promise<{ res: ApiResponse; offer: Offer | undefined }> {
  const res = await ctx.api.search(product, ctx.profile.search_criteria[product], { label: ctx.label(label) });
  if (!f.expect(isOk(res), `search of ${product} answered ${describe(res, ctx.profile)}, expected 2xx`, res)) return { res, offer: undefined };
  const offer = cheapest(res.offers);
  f.expect(offer !== undefined, `search of ${product} returned no offer with a quote token (${res.exchange.id})`, res);
  return { res, offer };
}

/** The wallet balance in minor units; records a problem when it cannot be read. `label` is the exchange's, after the check's id. */
export async function readBalance(ctx: CertifyContext, f: Findings, label: string): Promise<number | undefined> {
  const res = await ctx.api.balance({ label: ctx.label(label) });
  if (!f.expect(isOk(res) && res.amount !== undefined, `wallet balance read answered ${describe(res, ctx.profile)} without a balance`, res)) return undefined;
  return res.amount;
}

/** The booking body of the profile as exact bytes. */
export function bookingBody(ctx: CertifyContext, quoteToken: string, clientReference: string): string {
  return JSON.stringify(setTemplate(ctx.profile.booking_body, { quote_token: quoteToken, client_reference: clientReference }));
}

/** A fresh idempotency key of this run. */
export function freshKey(ctx: CertifyContext, what: string): string {
  return ctx.unique(`cert-${what}-`);
}

/** Cancels a booking the plan made, to give the money back; judged by the caller when it matters. `label` is the exchange's, after the check's id. */
export async function cancelBooking(ctx: CertifyContext, product: string, bookingId: string, label: string): Promise<ApiResponse & { refundAmount?: number }> {
  return ctx.api.cancel(product, bookingId, freshKey(ctx, 'cancel'), { label: ctx.label(label) });
}
