import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { walletChecks } from '../../../src/checks/wallet/index.js';
import { mislabelled, notPassing, startCheckTarget, type CheckTarget } from '../_context.js';

let t: CheckTarget;
beforeAll(async () => {
  t = await startCheckTarget({});
});
afterAll(async () => t.close());

describe('wallet checks against the mock', () => {
  test('every wallet check passes on the mock without defects', async () => {
    await t.defects([]);
    const out = await t.run(walletChecks);
    expect(notPassing(out)).toEqual([]);
    expect(mislabelled(t), 'every exchange a check sends is labelled with its id').toEqual([]);
    for (const o of Object.values(out)) expect(o.evidence?.length).toBeGreaterThan(0);
  });

  test.each([
    ['failed-booking-charges', 'WL-03'],
    ['cancel-no-refund', 'WL-02'],
    ['statement-drops-refunds', 'WL-01'],
    ['statement-drops-refunds', 'WL-02'],
  ])('defect %s makes %s fail with evidence', async (defect, id) => {
    await t.defects([defect]);
    const check = walletChecks.find((c) => c.id === id)!;
    const out = await check.run(t.context(id));
    expect(out.verdict, out.message).toBe('FAIL');
    expect(out.evidence?.length).toBeGreaterThan(0);
    const ids = new Set(t.recorder.exchanges.map((x) => x.id));
    for (const e of out.evidence ?? []) expect(ids.has(e)).toBe(true);
  });
});
