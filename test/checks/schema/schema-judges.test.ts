import { describe, expect, test } from 'vitest';
import { judgeResponsesConform } from '../../../src/checks/schema/responses-conform.js';
import { bundledOpenApiDocument } from '../../../src/openapi/load-document.js';
import { responseValidatorFor } from '../../../src/openapi/response-validator.js';
import { answer, errorAnswer, P } from '../_fixtures.js';

const validator = responseValidatorFor(bundledOpenApiDocument());
const rateHeaders = { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-reset': '0', 'x-ratelimit-resource': 'read' };
const offer = {
  result_id: 'res_1',
  product: 'flights',
  summary: 'LIS → MAD',
  price: { amount: 12345, currency: 'EUR' },
  quote_token: 'qt_abc.0.tag',
  quote_expires_at: '2027-01-01T10:15:00.000Z',
};

function search(results: unknown[], headers: Record<string, string> = rateHeaders) {
  return answer(200, { results }, { method: 'POST', url: `${P.base_url}/flights/search`, headers }).exchange;
}

describe('SC-01 judge', () => {
  test('passes when every described response conforms, and counts what the document does not describe', () => {
    const account = answer(
      200,
      {
        agency_id: 'agency-alpha',
        name: 'Alpha',
        currency: 'EUR',
        products: [{ product: 'flights', enabled: true }],
        rate_limits: { read: 600, write: 60, window_s: 60 },
      },
      { headers: rateHeaders },
    ).exchange;
    const notFound = errorAnswer(P.errors.not_found, { url: `${P.base_url}/flights/bookings/bk_1` }).exchange;
    const elsewhere = answer(200, {}, { url: `${P.base_url}/no/such/route/at/all` }).exchange;
    const out = judgeResponsesConform([search([offer]), account, notFound, elsewhere], validator);
    expect(out.verdict, out.message).toBe('PASS');
    expect(out.message).toBe('all 3 responses described by the OpenAPI document conform to it; not judged: 1 operation not in the document');
    expect(out.details).toMatchObject({ judged: 3, nonConforming: 0, notJudged: { 'operation not in the document': 1 } });
  });

  test('fails on a wrong type, naming the exchange, the JSON pointer and the rule', () => {
    const bad = search([offer, { ...offer, price: { amount: '12345', currency: 'EUR' } }]);
    const out = judgeResponsesConform([search([offer]), bad], validator);
    expect(out.verdict).toBe('FAIL');
    expect(out.evidence).toEqual([bad.id]);
    expect(out.message).toContain(
      `1 of 2 responses do not conform to the OpenAPI document: ${bad.id} (POST /v1/flights/search → 200) against POST /v1/flights/search 200`,
    );
    expect(out.message).toContain('/results/1/price/amount: must be integer [type]');
    expect(out.details?.violations).toEqual([
      {
        exchange: bad.id,
        label: undefined,
        operation: 'POST /v1/flights/search',
        status: 200,
        pointer: '/results/1/price/amount',
        rule: 'type',
        message: 'must be integer',
      },
    ]);
  });

  test('fails on a missing required header, an unknown error code and a body outside JSON', () => {
    const noRate = search([offer], {});
    const wrongCode = errorAnswer(
      { status: 403, code: 'FORBIDDEN' },
      { url: `${P.base_url}/cars/search`, method: 'POST', details: { product: 'cars' } },
    ).exchange;
    const plain = answer(404, undefined, { text: 'Not Found', headers: { 'content-type': 'text/plain' }, url: `${P.base_url}/flights/bookings/x` }).exchange;
    const out = judgeResponsesConform([noRate, wrongCode, plain], validator);
    expect(out.verdict).toBe('FAIL');
    expect(out.evidence).toEqual([noRate.id, wrongCode.id, plain.id]);
    expect(out.message).toContain('headers/x-ratelimit-limit: required header is missing [required]');
    expect(out.message).toContain('/error/code: must be equal to constant [const]');
    expect(out.message).toContain('Content-Type is "text/plain", the document says application/json [content-type]');
  });

  test('warns when the document describes no response of the run', () => {
    const out = judgeResponsesConform([answer(200, {}, { url: 'http://127.0.0.1:1/elsewhere' }).exchange], validator);
    expect(out.verdict).toBe('WARN');
  });
});
