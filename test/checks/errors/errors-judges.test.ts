import { describe, expect, test } from 'vitest';
import { judgeEnvelopeEverywhere } from '../../../src/checks/errors/envelope-everywhere.js';
import { judgeErrorCatalogue } from '../../../src/checks/errors/error-catalogue.js';
import { envelopeProblems } from '../../../src/checks/_internal/envelope-shape.js';
import { answer, errorAnswer, P } from '../_fixtures.js';

describe('error judges', () => {
  test('envelopeProblems names each way out of the envelope', () => {
    expect(
      envelopeProblems(
        {
          status: 404,
          headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
          body: JSON.stringify({ error: { code: 'NOT_FOUND', message: 'm', details: {}, request_id: 'r1' } }),
        },
        P,
      ),
    ).toEqual([]);
    const problems = envelopeProblems(
      {
        status: 404,
        headers: { 'content-type': 'application/json', 'x-request-id': 'r2' },
        body: JSON.stringify({ error: { code: 'notFound', message: 1, details: [], request_id: 'r1' } }),
      },
      P,
    );
    expect(problems).toEqual([
      'error code "notFound" is not UPPER_SNAKE',
      'error.details is not an object',
      'error.message is not a string',
      'error.request_id "r1" differs from x-request-id "r2"',
    ]);
  });

  test('ER-01 judges every error exchange of the run and cites the bad ones', () => {
    const good = [errorAnswer(P.errors.not_found), errorAnswer(P.errors.rate_limited), answer(200, {})].map((r) => r.exchange);
    expect(judgeEnvelopeEverywhere(good, P).verdict).toBe('PASS');
    const plain = answer(404, undefined, { text: 'Not Found', headers: { 'content-type': 'text/plain' }, url: `${P.base_url}/nowhere` }).exchange;
    const out = judgeEnvelopeEverywhere([...good, plain], P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('1 of 3 error responses are outside the envelope');
    expect(out.message).toContain('content type is "text/plain"');
    expect(out.evidence).toEqual([plain.id]);
    // Traffic to other hosts (a webhook receiver, the admin API) is not judged.
    const foreign = answer(500, undefined, { text: 'x', url: 'http://127.0.0.1:1/elsewhere' }).exchange;
    expect(judgeEnvelopeEverywhere([...good, foreign], P).verdict).toBe('PASS');
  });

  test('ER-02 fails on a wrong status and on an error outside the envelope', () => {
    const e = P.errors;
    const fields = { fields: [{ field: 'criteria.origin', message: 'required' }] };
    const cases = [
      { what: 'unknown route', expected: e.not_found, res: errorAnswer(e.not_found) },
      { what: 'invalid', expected: e.validation_failed, res: errorAnswer(e.validation_failed, { details: fields }), expectFields: true },
    ];
    expect(judgeErrorCatalogue(cases, P).verdict).toBe('PASS');
    const wrong = errorAnswer(e.validation_failed);
    const out = judgeErrorCatalogue([{ what: 'oversized body', expected: e.payload_too_large, res: wrong }], P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('oversized body answered 422 VALIDATION_FAILED, expected 413 PAYLOAD_TOO_LARGE');
    const noFields = judgeErrorCatalogue([{ what: 'invalid', expected: e.validation_failed, res: errorAnswer(e.validation_failed), expectFields: true }], P);
    expect(noFields.verdict).toBe('WARN');
  });
});
