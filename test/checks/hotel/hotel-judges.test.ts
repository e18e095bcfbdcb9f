import { describe, expect, test } from 'vitest';
import { judgeHotelKey } from '../../../src/checks/hotel/api-key.js';
import { judgeHotelLifecycle } from '../../../src/checks/hotel/booking-lifecycle.js';
import { judgeHotelEnvelope, judgeHotelNotFound } from '../../../src/checks/hotel/not-found.js';
import { answer, errorAnswer, P } from '../_fixtures.js';

const E = P.errors;

describe('hotel judges', () => {
  test('HT-01 fails when a wrong key is accepted', () => {
    const ok = { withKey: answer(200, { hotels: [] }), withoutKey: errorAnswer(E.unauthenticated), wrongKey: errorAnswer(E.unauthenticated) };
    expect(judgeHotelKey(ok, P).verdict).toBe('PASS');
    const out = judgeHotelKey({ ...ok, wrongKey: answer(200, { hotels: [] }) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('hotel availability with a wrong x-api-key answered 200, expected 401 UNAUTHENTICATED');
  });

  test('HT-02 fails when a second cancellation succeeds', () => {
    const obs = {
      availability: { ...answer(200, {}), rateKeys: ['rk_1'] },
      booking: { ...answer(201, { reference: 'HB-1' }), reference: 'HB-1' },
      cancellation: answer(200, { reference: 'HB-1', status: 'CANCELLED' }),
      secondCancellation: errorAnswer(E.booking_already_cancelled),
    };
    expect(judgeHotelLifecycle(obs, P).verdict).toBe('PASS');
    const out = judgeHotelLifecycle({ ...obs, secondCancellation: answer(200, {}) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('second hotel cancellation answered 200, expected 409 BOOKING_ALREADY_CANCELLED');
    expect(judgeHotelLifecycle({ availability: { ...answer(200, {}), rateKeys: [] } }, P).message).toContain('no rate key');
  });

  test('HT-03 fails when an unknown reference is not 404', () => {
    expect(judgeHotelNotFound({ unknownReference: errorAnswer(E.not_found), unknownRateKey: errorAnswer(E.not_found) }, P).verdict).toBe('PASS');
    const out = judgeHotelNotFound({ unknownReference: answer(200, {}), unknownRateKey: errorAnswer(E.not_found) }, P);
    expect(out.verdict).toBe('FAIL');
  });

  test('HT-04 fails on an error outside the envelope', () => {
    expect(judgeHotelEnvelope({ errors: [{ what: 'no key', res: errorAnswer(E.unauthenticated) }] }, P).verdict).toBe('PASS');
    const plain = answer(401, undefined, { text: 'nope', headers: { 'content-type': 'text/plain' } });
    const out = judgeHotelEnvelope({ errors: [{ what: 'no key', res: plain }] }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('no key (401) is outside the envelope: content type is "text/plain", not JSON');
  });
});
