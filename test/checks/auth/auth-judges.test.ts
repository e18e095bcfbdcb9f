import { describe, expect, test } from 'vitest';
import { judgeJudgingOrder } from '../../../src/checks/auth/judging-order.js';
import { judgeNonceReplay } from '../../../src/checks/auth/nonce-replay.js';
import { judgeSignatureInvalid } from '../../../src/checks/auth/signature-invalid.js';
import { judgeTimestampSkew } from '../../../src/checks/auth/timestamp-skew.js';
import { judgeUnauthenticated } from '../../../src/checks/auth/unauthenticated.js';
import { judgeValidRequest } from '../../../src/checks/auth/valid-request.js';
import { answer, errorAnswer, P } from '../_fixtures.js';

const E = P.errors;

describe('auth judges', () => {
  test('AU-01 passes on 200, fails on 401 naming the code', () => {
    expect(judgeValidRequest({ account: answer(200, {}) }, P).verdict).toBe('PASS');
    const bad = errorAnswer(E.signature_invalid);
    const out = judgeValidRequest({ account: bad }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('answered 401 SIGNATURE_INVALID, expected 2xx');
    expect(out.evidence).toEqual([bad.exchange.id]);
  });

  test('AU-02 fails when one refusal has another code, citing that exchange only', () => {
    const ok = errorAnswer(E.unauthenticated);
    expect(judgeUnauthenticated([{ what: 'no headers', res: ok }], P).verdict).toBe('PASS');
    const wrong = errorAnswer(E.signature_invalid);
    const out = judgeUnauthenticated(
      [
        { what: 'no headers', res: ok },
        { what: 'unknown key', res: wrong },
      ],
      P,
    );
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('unknown key answered 401 SIGNATURE_INVALID, expected 401 UNAUTHENTICATED');
    expect(out.evidence).toEqual([wrong.exchange.id]);
  });

  test('AU-03 fails when a forged request is accepted', () => {
    expect(judgeSignatureInvalid([{ what: 'forged', res: errorAnswer(E.signature_invalid) }], P).verdict).toBe('PASS');
    const out = judgeSignatureInvalid([{ what: 'forged', res: answer(200, {}) }], P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toBe('forged answered 200, expected 401 SIGNATURE_INVALID');
  });

  test('AU-04 judges both directions and the inside window', () => {
    const pass = judgeTimestampSkew(
      {
        outside: [
          { skewS: -360, res: errorAnswer(E.timestamp_skew) },
          { skewS: 360, res: errorAnswer(E.timestamp_skew) },
        ],
        inside: [{ skewS: 270, res: answer(200, {}) }],
      },
      P,
    );
    expect(pass.verdict).toBe('PASS');
    const fail = judgeTimestampSkew(
      {
        outside: [
          { skewS: -360, res: errorAnswer(E.timestamp_skew) },
          { skewS: 360, res: answer(200, {}) },
        ],
        inside: [],
      },
      P,
    );
    expect(fail.verdict).toBe('FAIL');
    expect(fail.message).toContain('timestamp +360 s off answered 200, expected 401 TIMESTAMP_SKEW');
  });

  test('AU-05 fails when the replayed nonce is accepted', () => {
    expect(judgeNonceReplay({ first: answer(200, {}), replay: errorAnswer(E.nonce_replayed) }, P).verdict).toBe('PASS');
    const out = judgeNonceReplay({ first: answer(200, {}), replay: answer(200, {}) }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('second request with the same nonce answered 200, expected 401 NONCE_REPLAYED');
  });

  test('AU-06 fails when a forged request burned the nonce', () => {
    const good = {
      forgedAndStale: errorAnswer(E.signature_invalid),
      forgedNonce: errorAnswer(E.signature_invalid),
      validAfterForged: answer(200, {}),
      staleNonce: errorAnswer(E.timestamp_skew),
      validAfterStale: answer(200, {}),
      staleReplayed: errorAnswer(E.timestamp_skew),
    };
    expect(judgeJudgingOrder(good, P).verdict).toBe('PASS');
    const burned = errorAnswer(E.nonce_replayed);
    const out = judgeJudgingOrder({ ...good, validAfterForged: burned }, P);
    expect(out.verdict).toBe('FAIL');
    expect(out.message).toContain('must not use up a nonce) answered 401 NONCE_REPLAYED, expected 2xx');
    expect(out.evidence).toContain(burned.exchange.id);
    expect(judgeJudgingOrder({ ...good, forgedAndStale: errorAnswer(E.timestamp_skew) }, P).verdict).toBe('FAIL');
  });
});
