import { afterEach, describe, expect, it } from 'vitest';
import type { ClockDriver } from '../../src/clock/clock-driver.js';
import { DEFAULT_FIXTURE } from '../../src/mock/index.js';
import { parseScenario, runScenario } from '../../src/scenario/index.js';
import { startContext, type TestContext } from './_context.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const parse = (t: TestContext, steps: string[], head: string[] = ['agency: 0', 'product: flights']) =>
  parseScenario(['name: s', 'description: d', ...head, 'steps:', ...steps].join('\n'), 's.yaml', t.ctx.profile);

/** The agency key ids the recorded requests were signed with. */
function keyIdsOf(t: TestContext): Set<string> {
  return new Set(
    t.recorder.exchanges.map((x) => /Credential=([^,\s]+)/.exec(x.request.headers.authorization ?? '')?.[1]).filter((k): k is string => k !== undefined),
  );
}

describe('the rest step', () => {
  it('waits until one window after the last request the run sent into the bucket, and not at all when none was sent', async () => {
    t = await startContext();
    const windowMs = t.ctx.profile.limits.window_s * 1000;
    const s = parse(t, ['  - rest: write']);
    const lastWrite = t.ctx.clock.now() - 10_000;
    const asked: string[] = [];
    const counted = {
      ...t.ctx,
      lastRequestAt: (kind: 'read' | 'write', agency = 0) => (asked.push(`${agency}:${kind}`), kind === 'write' ? lastWrite : undefined),
    };
    const before = t.ctx.clock.now();
    expect(await runScenario(counted, s)).toMatchObject({ verdict: 'PASS' });
    expect(asked).toEqual(['0:write']);
    expect(t.ctx.clock.now()).toBeGreaterThanOrEqual(lastWrite + windowMs);
    expect(t.ctx.clock.now() - before).toBeLessThan(windowMs);

    const quiet = { ...t.ctx, lastRequestAt: () => undefined };
    const at = t.ctx.clock.now();
    await runScenario(quiet, parse(t, ['  - rest: [read, write]']));
    expect(t.ctx.clock.now() - at).toBeLessThan(1000);
  });

  it('waits a whole window where the run does not count requests: the bucket may be full', async () => {
    t = await startContext();
    const at = t.ctx.clock.now();
    expect(t.ctx.lastRequestAt).toBeUndefined();
    await runScenario(t.ctx, parse(t, ['  - rest: write']));
    expect(t.ctx.clock.now() - at).toBeGreaterThanOrEqual(t.ctx.profile.limits.window_s * 1000);
  });
});

describe('rate-limit refusals in a scenario', () => {
  const fixture = { agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: 600, write: 2 } })) };
  const book = ['  - search:', '    save: { quote: cheapest.quote_token }', '  - book: { quote: "{{quote}}" }', '    expect: { status: [200, 201] }'];

  it('waits out a refusal it does not expect, as an agency client would, and keeps both attempts as evidence', async () => {
    t = await startContext({ fixture });
    const r = await runScenario(t.ctx, parse(t, [...book, ...book, ...book]));
    expect(r, r.message).toMatchObject({ verdict: 'PASS' });
    const refused = t.recorder.exchanges.filter((x) => x.response?.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(t.logs.some((l) => l.includes('rate limited (attempt 1)'))).toBe(true);
  });

  it('sees the refusal when a step expects it', async () => {
    t = await startContext({ fixture });
    const refusedBook = ['  - search:', '    save: { quote: cheapest.quote_token }', '  - book: { quote: "{{quote}}" }', '    expect: { code: rate_limited }'];
    const r = await runScenario(t.ctx, parse(t, [...book, ...book, ...refusedBook]));
    expect(r, r.message).toMatchObject({ verdict: 'PASS' });
    expect(t.logs.some((l) => l.includes('rate limited'))).toBe(false);
  });
});

describe('the agencies a scenario may use', () => {
  it('chooses and reads only among the usable agencies', async () => {
    t = await startContext();
    const any = parse(t, ['  - search:'], ['agency: any-with-product', 'product: cars']);
    const ids = t.ctx.agencies.map((a) => a.keyId);
    // gamma and delta have cars open; delta is the richer, but only alpha and gamma are usable
    const r = await runScenario(t.ctx, any, new Set([0, 2]));
    expect(r).toMatchObject({ verdict: 'PASS', details: { agency: 'agency-gamma' } });
    expect([...keyIdsOf(t)].sort()).toEqual([ids[0], ids[2]].sort());
    const none = await runScenario(t.ctx, any, new Set([0, 1]));
    expect(none).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('has cars open') });
    const named = await runScenario(t.ctx, parse(t, ['  - search:'], ['agency: agency-delta', 'product: cars']), new Set([0]));
    expect(named).toMatchObject({ verdict: 'SKIP', message: 'agency agency-delta is not one this run leaves to the scenarios' });
    expect(keyIdsOf(t).has(ids[3]!)).toBe(false);
  });
});

describe('the wait step in a real-time suite run', () => {
  it("gives the run's lease back through a wait it makes alone, saying when it comes back, and takes it back after; not within a concurrent repeat, nor for under a second", async () => {
    t = await startContext();
    // The target's clock as the scenario reads it, still between waits: its offset is read exactly however late the callback runs.
    const moving = t.ctx.clock;
    let at = moving.now();
    const clock: ClockDriver = {
      kind: moving.kind,
      now: () => at,
      wait: async (ms, why) => {
        await moving.wait(ms, why);
        at = moving.now();
      },
      waitUntil: async (instant, why) => {
        await moving.waitUntil(instant, why);
        at = moving.now();
      },
      fineUntil: (instant) => moving.fineUntil(instant),
    };
    const calls: string[] = [];
    const leased = {
      ...t.ctx,
      clock,
      // When it comes back, from the moment it says so (the scenario's steps before the wait take their own time).
      narrowLease: (keep: readonly string[], backAt?: number) =>
        void calls.push(`narrow [${keep.join(',')}] back +${Math.round(((backAt ?? NaN) - clock.now()) / 100) * 100}`),
      widenLease: () => (calls.push('widen'), Promise.resolve()),
    };
    const s = parse(t, [
      '  - wait: {ms: 1500}',
      '  - wait: {ms: 200}',
      '  - repeat:',
      '      count: 2',
      '      concurrent: true',
      '      steps:',
      '        - wait: {ms: 1200}',
    ]);
    const r = await runScenario(leased, s);
    expect(r, r.message).toMatchObject({ verdict: 'PASS' });
    // the scenario's first wait only: the short one and the branches' waits keep the lease
    expect(calls).toEqual(['narrow [] back +1500', 'widen']);
  });
});
