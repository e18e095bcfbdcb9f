import { describe, expect, test } from 'vitest';
import { judgeAccountProducts } from '../../../src/checks/contract/account-products.js';
import { judgeClosedProduct, productPrefix } from '../../../src/checks/contract/closed-product.js';
import { judgeOpenProducts } from '../../../src/checks/contract/open-products.js';
import { answer, errorAnswer, P, searchAnswer } from '../_fixtures.js';

const products = (open: string[]) => ({ products: P.products.map((p) => ({ product: p, enabled: open.includes(p) })) });

describe('contract judges', () => {
  test('CT-01 passes on a listing of known products, fails on an unknown one or none open', () => {
    expect(judgeAccountProducts({ account: answer(200, products(['flights'])) }, P).verdict).toBe('PASS');
    const odd = judgeAccountProducts({ account: answer(200, { products: [{ product: 'boats', enabled: true }] }) }, P);
    expect(odd.verdict).toBe('FAIL');
    expect(odd.message).toContain('"boats"');
    expect(judgeAccountProducts({ account: answer(200, products([])) }, P).message).toContain('no open product');
  });

  test('CT-02 fails when one endpoint of a closed product skips the contract', () => {
    const e = P.errors.module_not_enabled;
    const pass = judgeClosedProduct([{ product: 'cars', endpoint: 'search', res: errorAnswer(e) }], P);
    expect(pass.verdict).toBe('PASS');
    const skip = errorAnswer(P.errors.not_found);
    const out = judgeClosedProduct(
      [
        { product: 'cars', endpoint: 'search', res: errorAnswer(e) },
        { product: 'cars', endpoint: 'get booking', res: skip },
      ],
      P,
    );
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('get booking of closed product cars answered 404 NOT_FOUND, expected 403 MODULE_NOT_ENABLED');
    expect(out.evidence).toEqual([skip.exchange.id]);
    expect(productPrefix(P, 'cars')).toBe('/cars');
  });

  test('CT-03 fails when an open product answers 403', () => {
    expect(judgeOpenProducts([{ product: 'flights', res: searchAnswer([{ token: 'qt_a', price: 1 }]) }], P).verdict).toBe('PASS');
    const refused = { ...errorAnswer(P.errors.module_not_enabled), offers: [] };
    const out = judgeOpenProducts([{ product: 'flights', res: refused }], P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('search of open product flights answered 403 MODULE_NOT_ENABLED');
  });
});
