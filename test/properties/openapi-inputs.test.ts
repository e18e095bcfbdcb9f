import { afterEach, describe, expect, it } from 'vitest';
import { runProperties } from '../../properties/index.js';
import { startContext, type TestContext } from '../scenario/_context.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('property openapi-inputs', () => {
  it('holds against the clean mock, reporting per operation what it generated', async () => {
    t = await startContext();
    const [r] = await runProperties(t.ctx, { seed: 4242, only: ['openapi-inputs'], numRuns: 3 });
    expect(r, r!.message).toMatchObject({ id: 'property:openapi-inputs', verdict: 'PASS' });
    const ops = (r!.details as { operations: Array<{ operation: string; valid: number; invalid: number; keywords: string[] }> }).operations;

    const booking = ops.find((o) => o.operation === 'POST /{product}/bookings')!;
    expect(booking.valid).toBe(3);
    expect(booking.keywords).toEqual(expect.arrayContaining(['type', 'required', 'minItems', 'maxItems', 'maxLength', 'pattern', 'path enum']));
    const statuses = new Set(t.recorder.exchanges.map((x) => x.response?.status));
    for (const s of [200, 404, 405, 422]) expect(statuses).toContain(s);
  });
});

describe('property openapi-inputs fails with a shrunk request on a broken mock', () => {
  const broken: [string, RegExp, RegExp][] = [
    ['booking-body-unchecked', /^POST \/\w+\/bookings \{.*\} \(broken: body (type|required) at \/[\w/]*\)$/, /answered 500 INTERNAL_ERROR, a server error/],
    ['validation-fields-unnamed', /^POST \/\w+\/bookings \{.*\} \(broken: body \w+ at \/\w[\w/]*\)$/, /details\.fields \(body\) does not name body \//],
    [
      'invalid-booking-charges',
      /^POST \/\w+\/bookings \{.*\} \(broken: body \w+ at \/[\w/]*\)$/,
      /refused writes changed the wallet: balance \d+ → \d+, 1 new statement entry \(debit 100\)/,
    ],
    [
      'statement-limit-unchecked',
      /^GET \/wallet\/statement\?limit=(0|201)&cursor=\w* \(broken: query (minimum|maximum) at \/limit\)$/,
      /an invalid input answered 200, expected 422 or 400/,
    ],
    // An unknown cursor is refused before the limit is judged: the shrunk request may be valid or carry a broken limit too.
    [
      'statement-cursor-not-found',
      /^GET \/wallet\/statement\?limit=\d+&cursor=\w+ \((valid|broken: query \w+ at \/limit)\)$/,
      /(refused with 404 NOT_FOUND, which the document does not list for GET \/wallet\/statement|invalid input answered 404 NOT_FOUND)/,
    ],
    [
      'product-method-not-found',
      /^(GET|PUT|PATCH|DELETE|POST) \/\w+\/[\w/]+ \(a method \/[{}\w/]+ does not document\)$/,
      /answered 404 NOT_FOUND, expected 405 METHOD_NOT_ALLOWED/,
    ],
  ];
  for (const [defect, counterexample, message] of broken) {
    it(`with ${defect}`, async () => {
      t = await startContext({ defects: [defect] });
      const [r] = await runProperties(t.ctx, { seed: 7, only: ['openapi-inputs'] });
      expect(r!.verdict, r!.message).toBe('FAIL');
      const d = r!.details as Record<string, unknown>;
      expect(d.counterexample).toMatch(counterexample);
      expect(r!.message).toMatch(message);
      // The message shows the shrunk request once: where it already names the request it judged, no second copy follows.
      expect(r!.message.split(String(d.counterexample))).toHaveLength(2);
      expect(d.replay).toBe(`svc-harness run --only property:openapi-inputs --seed 7 --property-path ${String(d.path)}`);
      expect(r!.evidence.length).toBeGreaterThan(0);
    });
  }
});
