import { getArray, getField } from '../../api/fields.js';
import type { ApiResponse, Offer, StatementEntry, TargetApi } from '../../api/types.js';
import type { Profile } from '../../profile/index.js';

/**
 * The view of a response that `save`, `expect.fields` and `skip_if` read:
 * the raw `status`, `headers`, `body` and `error_code`, plus names drawn
 * through the profile (`offers`, `booking_id`, `price`, …) so that a scenario
 * written against these names runs against any profiled target.
 */
export type View = Record<string, unknown>;

/** The part of a view every response has. */
export function baseView(api: TargetApi, res: ApiResponse): View {
  return { status: res.status, headers: res.headers, body: res.json, error_code: api.errorCode(res) };
}

function offerView(o: Offer): View {
  return { result_id: o.resultId, quote_token: o.quoteToken, quote_expires_at: o.quoteExpiresAt, price: o.priceAmount, currency: o.currency };
}

/** A search response's view: `offers` and the `cheapest` offer. */
export function searchView(api: TargetApi, res: ApiResponse & { offers: Offer[] }): View {
  const offers = res.offers.map(offerView);
  const priced = res.offers.filter((o) => o.priceAmount !== undefined);
  const cheapest = priced.length ? priced.reduce((a, b) => ((b.priceAmount ?? Infinity) < (a.priceAmount ?? Infinity) ? b : a)) : res.offers[0];
  return { ...baseView(api, res), offers, cheapest: cheapest ? offerView(cheapest) : undefined };
}

/** A booking (create or read) response's view. */
export function bookingView(api: TargetApi, res: ApiResponse, profile: Profile): View {
  const f = profile.fields;
  return {
    ...baseView(api, res),
    booking_id: getField(res.json, f.booking_id),
    booking_status: getField(res.json, f.booking_status),
    price: getField(res.json, f.booking_price_amount),
  };
}

/** A cancellation response's view. */
export function cancelView(api: TargetApi, res: ApiResponse, profile: Profile): View {
  const f = profile.fields;
  return { ...baseView(api, res), refund: getField(res.json, f.cancellation_refund_amount), cancellation_status: getField(res.json, f.cancellation_status) };
}

/** A balance response's view. */
export function balanceView(api: TargetApi, res: ApiResponse, profile: Profile): View {
  const f = profile.fields;
  return { ...baseView(api, res), balance: getField(res.json, f.balance_amount), currency: getField(res.json, f.balance_currency) };
}

/** The whole statement's view (every page), newest first. */
export function statementView(api: TargetApi, res: ApiResponse, entries: StatementEntry[]): View {
  return {
    ...baseView(api, res),
    entries: entries.map((e) => ({ entry_id: e.id, type: e.type, amount: e.amount, balance_after: e.balanceAfter, booking_id: e.bookingId })),
  };
}

/** An account response's view: products open and closed under the contract. */
export function accountView(api: TargetApi, res: ApiResponse, open: string[], closed: string[], profile: Profile): View {
  return {
    ...baseView(api, res),
    open_products: open,
    closed_products: closed,
    currency: getField(res.json, profile.fields.account_currency),
    products: getArray(res.json, profile.fields.account_products),
  };
}
