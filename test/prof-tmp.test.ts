import { test } from 'vitest';
import { bundledOpenApiDocument } from '../src/openapi/load-document.js';
import { ResponseValidator } from '../src/openapi/response-validator.js';
test('p', () => {
  let t = performance.now();
  const doc = bundledOpenApiDocument();
  console.log('load', performance.now() - t); t = performance.now();
  const v = new ResponseValidator(doc);
  console.log('new', performance.now() - t); t = performance.now();
  const mk = (method: string, url: string, status: number, body: unknown) => ({ id: 'x', request: { method, url, headers: {} }, response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, startedAt: 0, durationMs: 0 });
  const ops = [['GET','/v1/account',200],['POST','/v1/flights/search',200],['POST','/v1/cars/search',200],['GET','/v1/account',401],['POST','/v1/flights/bookings',201],['POST','/v1/flights/bookings',409],['GET','/v1/wallet/balance',200]] as const;
  for (const [m,p,s] of ops) { const t1 = performance.now(); v.judge(mk(m, 'http://h'+p, s, {})); console.log(m,p,s, (performance.now()-t1).toFixed(1)); }
  t = performance.now();
  for (let i = 0; i < 3000; i++) v.judge(mk('POST', 'http://h/v1/flights/search', 200, { results: [{ result_id: 'r', product: 'flights', summary: 's', price: { amount: 1, currency: 'EUR' }, quote_token: 'qt_x', quote_expires_at: '2027-01-01T10:15:00.000Z' }] }));
  console.log('3000 validations', performance.now() - t);
});
