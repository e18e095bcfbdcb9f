import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratelimitChecks } from '../../../src/checks/ratelimit/index.js';
import type { Check } from '../../../src/checks/types.js';
import { startRig, type RlWhRig } from '../_context-rl-wh.js';

let rig: RlWhRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

function check(id: string): Check {
  const c = ratelimitChecks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

async function runOn(id: string, defects: string[] = [], limitsInProfile = false) {
  rig.mock.defects.disable(rig.mock.defects.list());
  rig.mock.defects.enable(defects);
  await rig.mock.reset();
  const ctx = rig.run({ limitsInProfile });
  const outcome = await check(id).run(ctx.context(id));
  return { outcome, ctx };
}

describe('rate-limit checks against the mock', () => {
  it('has unique ids and cites SPEC §8 or §1', () => {
    expect(new Set(ratelimitChecks.map((c) => c.id)).size).toBe(ratelimitChecks.length);
    for (const c of ratelimitChecks) expect(c.clause).toMatch(/^SPEC §/);
  });

  it.each(ratelimitChecks.map((c) => c.id))('%s passes on the clean mock', async (id) => {
    const { outcome, ctx } = await runOn(id);
    expect(outcome.message).toBeTruthy();
    expect(outcome.verdict, outcome.message).toBe('PASS');
    for (const e of outcome.evidence ?? []) expect(ctx.recorder.exchanges.some((x) => x.id === e)).toBe(true);
    for (const x of ctx.recorder.exchanges) expect(x.label, 'labelled with the check id').toMatch(new RegExp(`^${id} `));
  });

  it('RL-01 passes with the limits given by the profile too', async () => {
    const { outcome } = await runOn('RL-01', [], true);
    expect(outcome.verdict, outcome.message).toBe('PASS');
  });

  const cases: [string, string, RegExp][] = [
    ['ratelimit-headers-missing', 'RL-07', /missing/],
    ['ratelimit-remaining-wrong', 'RL-07', /Remaining/i],
    ['retry-after-missing', 'RL-03', /no retry-after/i],
    ['retry-after-short', 'RL-03', /too short/],
    ['retry-after-long', 'RL-03', /too long/],
    ['limit-plus-one', 'RL-01', /61 requests .* admitted/],
    ['early-throttle', 'RL-01', /refused, but the limit is/],
    ['fixed-window', 'RL-04', /fixed clock-minute|not rolling/],
    ['single-bucket', 'RL-05', /counted with the full read bucket/],
    ['shared-buckets', 'RL-06', /second agency/],
    ['ratelimit-charges', 'RL-02', /charged the wallet/],
  ];
  it.each(cases)('%s makes %s fail', async (defect, id, why) => {
    const { outcome, ctx } = await runOn(id, [defect]);
    expect(outcome.verdict, outcome.message).toBe('FAIL');
    expect(outcome.message).toMatch(why);
    expect(outcome.evidence?.length).toBeGreaterThan(0);
    for (const e of outcome.evidence ?? []) expect(ctx.recorder.exchanges.some((x) => x.id === e)).toBe(true);
  });
});
