import { describe, expect, it } from 'vitest';
import { fillPath, getArray, getField, getNumber, getString, setTemplate } from '../../src/api/fields.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

describe('getField', () => {
  const obj = { error: { code: 'X', details: {} }, results: [{ price: { amount: 5 } }], n: null, zero: 0 };
  it.each([
    ['error.code', 'X'],
    ['error.details', {}],
    ['results.0.price.amount', 5],
    ['results.1.price', undefined],
    ['results.x', undefined],
    ['n.deeper', undefined],
    ['zero', 0],
    ['missing.path', undefined],
    ['error.code.length', undefined],
    ['toString', undefined],
  ])('%s', (path, want) => {
    expect(getField(obj, path)).toEqual(want);
  });

  it('returns the value itself for an empty path, and tolerates non-objects', () => {
    expect(getField(obj, '')).toBe(obj);
    expect(getField(undefined, 'a')).toBeUndefined();
    expect(getField('text', 'length')).toBeUndefined();
  });

  it('has typed readers', () => {
    expect(getString(obj, 'error.code')).toBe('X');
    expect(getString(obj, 'zero')).toBeUndefined();
    expect(getNumber(obj, 'zero')).toBe(0);
    expect(getNumber({ a: Number.NaN }, 'a')).toBeUndefined();
    expect(getArray(obj, 'results')).toHaveLength(1);
    expect(getArray(obj, 'error')).toEqual([]);
  });
});

describe('setTemplate', () => {
  it('fills the reference booking body', () => {
    expect(setTemplate(DEFAULT_PROFILE.booking_body, { quote_token: 'qt_1', client_reference: 'ref-9' })).toEqual({
      quote_token: 'qt_1',
      travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
      client_reference: 'ref-9',
    });
  });

  it('replaces a whole placeholder by an object and leaves the template untouched', () => {
    const template = { criteria: '{criteria}', meta: ['{criteria}'] };
    const criteria = { origin: 'LIS', adults: 2 };
    const out = setTemplate(template, { criteria }) as { criteria: unknown; meta: unknown[] };
    expect(out).toEqual({ criteria, meta: [criteria] });
    expect(template).toEqual({ criteria: '{criteria}', meta: ['{criteria}'] });
  });

  it('substitutes inside longer strings, drops undefined members, keeps unknown placeholders', () => {
    const out = setTemplate({ a: 'ref-{x}-{y}', b: '{gone}', c: '{unknown}', d: 3, e: null, f: true }, { x: 'one', y: 2, gone: undefined });
    expect(out).toEqual({ a: 'ref-one-2', c: '{unknown}', d: 3, e: null, f: true });
  });
});

describe('fillPath', () => {
  it('fills and encodes segments', () => {
    expect(fillPath('/{product}/bookings/{booking_id}/cancellations', { product: 'flights', booking_id: 'b 1/2' })).toBe(
      '/flights/bookings/b%201%2F2/cancellations',
    );
    expect(fillPath('/{product}/x', {})).toBe('/{product}/x');
  });
});
