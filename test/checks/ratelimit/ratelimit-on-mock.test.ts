import type { ClockDriver } from '../../../src/clock/clock-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratelimitChecks } from '../../../src/checks/ratelimit/index.js';
import type { Check, CheckContext } from '../../../src/checks/types.js';
import type { TargetApi } from '../../../src/api/types.js';
import { WRITE_EPISODE } from '../../../src/checks/_internal/rl-episode.js';
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
    // The fill's booking and wallet reads are RL-02's evidence, whichever member of the fill ran it.
    const episode = id !== 'RL-04' ? 'RL-02' : id;
    for (const x of ctx.recorder.exchanges) expect(x.label, 'labelled with the check id').toMatch(new RegExp(`^(${id}|${episode}) `));
    if (id === 'RL-02') for (const e of outcome.evidence ?? []) expect(ctx.recorder.exchanges.find((x) => x.id === e)?.label).toMatch(/^RL-02 /);
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
    ['refusals-counted', 'RL-08', /refused half a window earlier were counted/],
  ];
  it.each(cases)('%s makes %s fail', async (defect, id, why) => {
    const { outcome, ctx } = await runOn(id, [defect]);
    expect(outcome.verdict, outcome.message).toBe('FAIL');
    expect(outcome.message).toMatch(why);
    expect(outcome.evidence?.length).toBeGreaterThan(0);
    for (const e of outcome.evidence ?? []) expect(ctx.recorder.exchanges.some((x) => x.id === e)).toBe(true);
  });
});

describe('one fill of the write bucket, every verdict that can use it', () => {
  const members = ratelimitChecks.filter((c) => c.episode === WRITE_EPISODE);

  it('every rate-limit check but the rolling window shares it', () => {
    expect(members.map((c) => c.id).sort()).toEqual(['RL-01', 'RL-02', 'RL-03', 'RL-05', 'RL-06', 'RL-07', 'RL-08']);
    for (const c of members) expect(c.uses?.fills).toEqual(members[0]!.uses?.fills);
  });

  it('the first member fills the bucket once; the others judge it without a request of their own', async () => {
    rig.mock.defects.disable(rig.mock.defects.list());
    await rig.mock.reset();
    const run = rig.run();
    for (const c of members) {
      const before = run.recorder.exchanges.length;
      const outcome = await c.run(run.context(c.id));
      expect(outcome.verdict, `${c.id}: ${outcome.message}`).toBe('PASS');
      if (c !== members[0]) expect(run.recorder.exchanges.length, `${c.id} sent requests of its own`).toBe(before);
    }
    const fills = run.recorder.exchanges.filter((x) => x.label === `${members[0]!.id} write probe (fill)`);
    expect(fills).toHaveLength(61);
  });

  /** The context of `id` in a fresh run, every 429 of agency 0 answering `retryAfter`, and the waits it asked of the clock. */
  function withRetryAfter(id: string, retryAfter: string): { ctx: CheckContext; waits: number[] } {
    const base = rig.run().context(id);
    const waits: number[] = [];
    const api = (i?: number): TargetApi => {
      const inner = base.api(i);
      if ((i ?? 0) !== 0) return inner;
      return new Proxy(inner, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (prop !== 'raw' || typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            const res = await (value as (...a: unknown[]) => Promise<{ status: number; headers: Record<string, string> }>).apply(target, args);
            return res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': retryAfter } } : res;
          };
        },
      });
    };
    const clock: ClockDriver = {
      kind: base.clock.kind,
      now: () => base.clock.now(),
      wait: (ms: number) => (waits.push(ms), base.clock.wait(ms)),
      waitUntil: (instant: number) => (waits.push(instant - base.clock.now()), base.clock.waitUntil(instant)),
      fineUntil: (instant: number) => base.clock.fineUntil(instant),
    };
    return { ctx: { ...base, api, clock }, waits };
  }

  it.each(['2000000', '99999999999'])('a Retry-After of %s s is a FAIL for being longer than the window, never a wait', async (ra) => {
    rig.mock.defects.disable(rig.mock.defects.list());
    await rig.mock.reset();
    const { ctx, waits } = withRetryAfter('RL-03', ra);
    const outcome = await check('RL-03').run(ctx);
    expect(outcome.verdict, outcome.message).toBe('FAIL');
    expect(outcome.message).toMatch(new RegExp(`Retry-After of ${ra} s is longer than the window of 60 s`, 'i'));
    expect(outcome.message).not.toMatch(/too short/);
    expect(Math.max(...waits)).toBeLessThanOrEqual(61_000);
  });
});
