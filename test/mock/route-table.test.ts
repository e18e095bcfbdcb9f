import { describe, expect, test } from 'vitest';
import { matchRoute, SERVICE_ROUTES } from '../../src/mock/http/route-table.js';
import { PRODUCTS } from '../../src/mock/fixture/fixture-types.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get'];

/** Every concrete path of the service's routes (booking ids filled in), with the routes it serves. */
function concretePaths(): Map<string, { names: string[]; product?: string; bookingId?: string }> {
  const out = new Map<string, { names: string[]; product?: string; bookingId?: string }>();
  for (const r of SERVICE_ROUTES) {
    for (const product of r.path.includes('{product}') ? PRODUCTS : [undefined]) {
      const bookingId = r.path.includes('{booking_id}') ? 'bk 1/é' : undefined;
      const path = r.path.replace('{product}', product ?? '').replace('{booking_id}', encodeURIComponent(bookingId ?? ''));
      const at = out.get(path) ?? { names: [], ...(product ? { product } : {}), ...(bookingId ? { bookingId } : {}) };
      at.names.push(r.name);
      out.set(path, at);
    }
  }
  return out;
}

describe('route table: every route and method', () => {
  test('each path answers its routes for their methods, the allowed methods for others, with its params', () => {
    for (const [path, at] of concretePaths()) {
      const routes = SERVICE_ROUTES.filter((r) => at.names.includes(r.name));
      for (const method of METHODS) {
        const match = matchRoute(method, path);
        const route = routes.find((r) => r.method === method);
        if (route) {
          expect(match, `${method} ${path}`).toEqual({
            route,
            params: { ...(at.product ? { product: at.product } : {}), ...(at.bookingId ? { bookingId: at.bookingId } : {}) },
          });
        } else {
          expect(match, `${method} ${path}`).toEqual({ allow: routes.map((r) => r.method) });
        }
      }
    }
  });

  test.each([
    '/v1',
    '/v1/',
    '/v1/hotels/search',
    '/v1/flights',
    '/v1/flights/search/',
    '/v1/flights/searches',
    '/v2/account',
    '/v1/account/',
    '/V1/account',
    '/v1/wallet',
    '/v1/flights/bookings/',
  ])('%s is no resource', (path) => {
    for (const method of METHODS) expect(matchRoute(method, path)).toBeUndefined();
  });
});
