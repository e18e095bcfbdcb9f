import type { Agency } from '../domain/agency.js';
import { validateBookingBody, validateCancellationBody, validateWebhookBody } from '../domain/booking-input.js';
import type { MockService, OpResult } from '../domain/mock-service.js';
import { validateSearch } from '../domain/search-criteria.js';
import { isProduct, PRODUCTS, type Product } from '../fixture/fixture-types.js';

/** How a route reads its body. */
export type BodyKind = 'none' | 'json' | 'json-or-empty';

/** One operation of the service, as the pipeline runs it. */
export interface Route {
  name: string;
  method: string;
  /** Path template, as the OpenAPI document writes it (`/v1/{product}/bookings/{booking_id}`). */
  path: string;
  body: BodyKind;
  /** Booking and cancellation: the idempotency step applies. */
  idempotent: boolean;
  /** Step 5: turns the parsed body into the operation's input (422 when wrong). */
  validate(body: unknown, params: RouteParams): unknown;
  /**
   * Set when `validate` is a pure function of the body text and the path's
   * product, and `run` never changes its input: the pipeline may then reuse
   * the input of an identical body it validated before (a load repeats its
   * searches' criteria).
   */
  reusableInput?: true;
  /** Step 7. */
  run(service: MockService, agency: Agency, params: RouteParams, input: unknown, query: string): OpResult | Promise<OpResult>;
}

/** What the path names. */
export interface RouteParams {
  product?: Product;
  bookingId?: string;
}

/** A path's match: the route for the method, or the methods the path allows. */
type RouteMatch = { route: Route; params: RouteParams } | { allow: string[] } | undefined;

const none = (): undefined => undefined;

const ACCOUNT: Route = { name: 'account', method: 'GET', path: '/v1/account', body: 'none', idempotent: false, validate: none, run: (s, a) => s.account(a) };
const BALANCE: Route = {
  name: 'wallet.balance',
  method: 'GET',
  path: '/v1/wallet/balance',
  body: 'none',
  idempotent: false,
  validate: none,
  run: (s, a) => s.balance(a),
};
const STATEMENT: Route = {
  name: 'wallet.statement',
  method: 'GET',
  path: '/v1/wallet/statement',
  body: 'none',
  idempotent: false,
  validate: none,
  run: (s, a, _p, _i, q) => s.statement(a, new URLSearchParams(q)),
};
const RATES: Route = {
  name: 'wallet.rates',
  method: 'GET',
  path: '/v1/wallet/rates',
  body: 'none',
  idempotent: false,
  validate: none,
  run: (s, a) => s.rates(a),
};
const WEBHOOK_GET: Route = {
  name: 'webhook.get',
  method: 'GET',
  path: '/v1/webhook-endpoint',
  body: 'none',
  idempotent: false,
  validate: none,
  run: (s, a) => s.getWebhook(a),
};
const WEBHOOK_PUT: Route = {
  name: 'webhook.put',
  method: 'PUT',
  path: '/v1/webhook-endpoint',
  body: 'json',
  idempotent: false,
  validate: (b) => validateWebhookBody(b),
  run: (s, a, _p, i) => s.putWebhook(a, (i as { url: string | null }).url),
};
const SEARCH: Route = {
  name: 'search',
  method: 'POST',
  path: '/v1/{product}/search',
  body: 'json',
  idempotent: false,
  validate: (b, p) => validateSearch(p.product!, b),
  reusableInput: true,
  run: (s, a, p, i) => s.search(a, p.product!, i as Record<string, string | number>),
};
const BOOK: Route = {
  name: 'booking.create',
  method: 'POST',
  path: '/v1/{product}/bookings',
  body: 'json',
  idempotent: true,
  validate: (b) => validateBookingBody(b),
  run: (s, a, p, i) => s.book(a, p.product!, i as ReturnType<typeof validateBookingBody>),
};
const BOOKING_GET: Route = {
  name: 'booking.get',
  method: 'GET',
  path: '/v1/{product}/bookings/{booking_id}',
  body: 'none',
  idempotent: false,
  validate: none,
  run: (s, a, p) => s.getBooking(a, p.product!, p.bookingId!),
};
const CANCEL: Route = {
  name: 'booking.cancel',
  method: 'POST',
  path: '/v1/{product}/bookings/{booking_id}/cancellations',
  body: 'json-or-empty',
  idempotent: true,
  validate: (b) => validateCancellationBody(b),
  run: (s, a, p) => s.cancel(a, p.product!, p.bookingId!),
};

/** Every route of the service, for tools and tests that list them (the OpenAPI document must name each). */
export const SERVICE_ROUTES: readonly Route[] = [ACCOUNT, SEARCH, BOOK, BOOKING_GET, CANCEL, BALANCE, STATEMENT, RATES, WEBHOOK_GET, WEBHOOK_PUT];

function pick(method: string, routes: Route[], params: RouteParams): RouteMatch {
  const route = routes.find((r) => r.method === method);
  return route ? { route, params } : { allow: routes.map((r) => r.method) };
}

/**
 * The matches of a path that names no booking, made once per method: a
 * search then costs no match object, params or route list per request. Its
 * params are shared, which nothing changes.
 */
function fixedPath(routes: Route[], params: RouteParams): (method: string) => RouteMatch {
  const found = new Map(routes.map((r) => [r.method, { route: r, params }]));
  return (method) => found.get(method) ?? pick(method, routes, params);
}

const ACCOUNT_PATH = fixedPath([ACCOUNT], {});
const WEBHOOK_PATH = fixedPath([WEBHOOK_GET, WEBHOOK_PUT], {});
const BALANCE_PATH = fixedPath([BALANCE], {});
const STATEMENT_PATH = fixedPath([STATEMENT], {});
const RATES_PATH = fixedPath([RATES], {});
const SEARCH_PATHS = new Map(PRODUCTS.map((product) => [product, fixedPath([SEARCH], { product })]));
const BOOKINGS_PATHS = new Map(PRODUCTS.map((product) => [product, fixedPath([BOOK], { product })]));

/** Every path that names no booking, with its matches: such a path is looked up whole rather than split. */
const FIXED_PATHS = new Map<string, (method: string) => RouteMatch>([
  ['/v1/account', ACCOUNT_PATH],
  ['/v1/webhook-endpoint', WEBHOOK_PATH],
  ['/v1/wallet/balance', BALANCE_PATH],
  ['/v1/wallet/statement', STATEMENT_PATH],
  ['/v1/wallet/rates', RATES_PATH],
  ...PRODUCTS.map((product) => [`/v1/${product}/search`, SEARCH_PATHS.get(product)!] as const),
  ...PRODUCTS.map((product) => [`/v1/${product}/bookings`, BOOKINGS_PATHS.get(product)!] as const),
]);

function decodeSegment(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** Step 4 of the judging order: which route a method and path name (REFERENCE-API.md section 5). */
export function matchRoute(method: string, path: string): RouteMatch {
  const fixed = FIXED_PATHS.get(path);
  if (fixed !== undefined) return fixed(method);
  const seg = path.split('/');
  if (seg[0] !== '' || seg[1] !== 'v1') return undefined;
  const n = seg.length;
  const a = seg[2];
  if (a === undefined) return undefined;
  if (n === 3) {
    if (a === 'account') return ACCOUNT_PATH(method);
    if (a === 'webhook-endpoint') return WEBHOOK_PATH(method);
    return undefined;
  }
  if (a === 'wallet' && n === 4) {
    const b = seg[3];
    if (b === 'balance') return BALANCE_PATH(method);
    if (b === 'statement') return STATEMENT_PATH(method);
    if (b === 'rates') return RATES_PATH(method);
    return undefined;
  }
  if (!isProduct(a) || seg[3] === undefined) return undefined;
  const product = a;
  if (n === 4) {
    if (seg[3] === 'search') return SEARCH_PATHS.get(product)!(method);
    if (seg[3] === 'bookings') return BOOKINGS_PATHS.get(product)!(method);
    return undefined;
  }
  if (seg[3] !== 'bookings' || seg[4] === '' || n > 6) return undefined;
  const bookingId = decodeSegment(seg[4]!);
  if (bookingId === undefined) return undefined;
  if (n === 5) return pick(method, [BOOKING_GET], { product, bookingId });
  if (seg[5] === 'cancellations') return pick(method, [CANCEL], { product, bookingId });
  return undefined;
}

/** The product a path lies under (`/v1/{product}/…`), if it names one of the four. */
export function productOfPath(path: string): Product | undefined {
  if (!path.startsWith('/v1/')) return undefined;
  const end = path.indexOf('/', 4);
  const word = end === -1 ? path.slice(4) : path.slice(4, end);
  return isProduct(word) && end !== -1 ? word : undefined;
}

/** True when the request counts in the `read` bucket: every GET and every `POST …/search`. */
export function isRead(method: string, path: string): boolean {
  return method === 'GET' || (method === 'POST' && path.endsWith('/search'));
}
