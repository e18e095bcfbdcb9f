import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksChecks } from '../../../src/checks/webhooks/index.js';
import type { Check, CheckOutcome } from '../../../src/checks/types.js';
import { startRig, type RlWhRig, type RlWhRun } from '../_context-rl-wh.js';

let rig: RlWhRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

function check(id: string): Check {
  const c = webhooksChecks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

async function fresh(defects: string[] = []): Promise<RlWhRun> {
  rig.mock.defects.disable(rig.mock.defects.list());
  rig.mock.defects.enable(defects);
  await rig.mock.reset();
  return rig.run();
}

describe('webhook checks against the mock', () => {
  it('has unique ids and cites SPEC', () => {
    expect(new Set(webhooksChecks.map((c) => c.id)).size).toBe(webhooksChecks.length);
    for (const c of webhooksChecks) {
      expect(c.clause).toMatch(/^SPEC §/);
      expect(c.needs).toContain('receiver');
    }
  });

  it('every check passes on the clean mock, sharing scenario runs within one context', async () => {
    const ctx = await fresh();
    const outcomes: Record<string, CheckOutcome> = {};
    for (const c of webhooksChecks) outcomes[c.id] = await c.run(ctx.context(c.id));
    for (const [id, o] of Object.entries(outcomes)) {
      expect(o.verdict, `${id}: ${o.message}`).toBe('PASS');
      for (const e of o.evidence ?? [])
        expect(
          ctx.recorder.exchanges.some((x) => x.id === e),
          `${id} evidence ${e}`,
        ).toBe(true);
    }
    // A scenario run is labelled with the check that made it; the others judge it from the run cache.
    const ids = webhooksChecks.map((c) => c.id);
    for (const x of ctx.recorder.exchanges)
      expect(
        ids.some((id) => x.label?.startsWith(`${id} `)),
        x.label,
      ).toBe(true);
    // 1 healthy + 3 failing + 2 fail-once + 1 replay + 2 cancel (confirmed, cancelled) + 1 hotel attempt.
    expect(ctx.webhookPoints.filter((p) => p.scheme === 'service')).toHaveLength(9);
    expect(ctx.webhookPoints.filter((p) => p.scheme === 'hotel')).toHaveLength(1);
    const failing = ctx.webhookPoints.filter((p) => p.check === 'WH-02').map((p) => p.attempt);
    expect(failing).toEqual([1, 2, 3]);
  });

  const cases: [string, string, RegExp][] = [
    ['webhook-extra-retry', 'WH-03', /got 4 attempts/],
    ['webhook-no-retry', 'WH-03', /only 1 of 3 attempts/],
    ['webhook-no-retry', 'WH-06', /never retried/],
    ['webhook-new-id', 'WH-04', /3 different/],
    ['webhook-constant-backoff', 'WH-05', /attempt 3 came 5\.\d s after attempt 2, expected 15\.0 s/],
    ['webhook-bad-signature', 'WH-02', /signature-mismatch/],
    ['replay-emits-webhook', 'WH-07', /replay emitted an event/],
    ['hotel-webhook-retried', 'WH-10', /got 2 attempts/],
    ['hotel-bad-signature', 'WH-09', /signature-mismatch/],
  ];
  it.each(cases)('%s makes %s fail', async (defect, id, why) => {
    const ctx = await fresh([defect]);
    const outcome = await check(id).run(ctx.context(id));
    expect(outcome.verdict, outcome.message).toBe('FAIL');
    expect(outcome.message).toMatch(why);
    expect(outcome.evidence?.length).toBeGreaterThan(0);
    for (const e of outcome.evidence ?? []) expect(ctx.recorder.exchanges.some((x) => x.id === e)).toBe(true);
  });
});
