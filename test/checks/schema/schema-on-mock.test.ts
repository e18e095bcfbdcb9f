import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaChecks } from '../../../src/checks/schema/index.js';
import { notPassing, startCheckTarget, type CheckTarget } from '../_context.js';
import { contractChecks } from '../../../src/checks/contract/index.js';
import { errorsChecks } from '../../../src/checks/errors/index.js';
import { hotelChecks } from '../../../src/checks/hotel/index.js';
import { idempotencyChecks } from '../../../src/checks/idempotency/index.js';
import { quotesChecks } from '../../../src/checks/quotes/index.js';

let t: CheckTarget;
beforeAll(async () => {
  t = await startCheckTarget({});
});
afterAll(async () => t.close());

describe('SC-01 against the mock', () => {
  test('passes over the exchanges of other checks on the mock without defects', async () => {
    await t.defects([]);
    await t.run([...contractChecks, ...errorsChecks, ...quotesChecks, ...idempotencyChecks, ...hotelChecks]);
    const out = await t.run(schemaChecks);
    const sc = out['SC-01']!;
    expect(notPassing(out)).toEqual([]);
    // Timing is measured in bench runs, never asserted in tests (shared machines).
    expect((sc.details as { judged: number }).judged).toBeGreaterThan(50);
  });

  test('judges something when it runs alone', async () => {
    t.recorder.exchanges.length = 0;
    const sc = (await t.run(schemaChecks))['SC-01']!;
    expect(sc.verdict, sc.message).toBe('PASS');
    expect((sc.details as { judged: number }).judged).toBeGreaterThanOrEqual(5);
  });

  test('defect price-amount-as-string makes SC-01 fail with evidence', async () => {
    await t.defects(['price-amount-as-string']);
    t.recorder.exchanges.length = 0;
    const sc = (await t.run(schemaChecks))['SC-01']!;
    expect(sc.verdict, sc.message).toBe('FAIL');
    expect(sc.message).toMatch(/\/results\/0\/price\/amount: must be integer \[type\]/);
    const ids = new Set(t.recorder.exchanges.map((x) => x.id));
    expect(sc.evidence?.length).toBeGreaterThan(0);
    for (const e of sc.evidence ?? []) expect(ids.has(e)).toBe(true);
  });
});
