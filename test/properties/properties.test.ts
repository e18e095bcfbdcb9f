import { afterEach, describe, expect, it } from 'vitest';
import { runProperties } from '../../properties/index.js';
import { startContext, type TestContext } from '../scenario/_context.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('properties against the clean mock', () => {
  it('all hold, with seed, run count and replay command', async () => {
    t = await startContext();
    const results = await runProperties(t.ctx, { seed: 1234 });
    expect(results.map((r) => r.id)).toEqual([
      'property:idempotency-model',
      'property:no-charge-on-429-and-failure',
      'property:quote-lock',
      'property:openapi-inputs',
    ]);
    for (const r of results) {
      expect(r, `${r.id}: ${r.message}`).toMatchObject({ verdict: 'PASS', kind: 'property', area: 'properties' });
      expect(r.details).toMatchObject({ seed: 1234, replay: `svc-harness run --only ${r.id} --seed 1234` });
    }
    expect(results[0]!.details).toMatchObject({ numRuns: 25, runs: 25 });
    // The properties really drove the target: bookings, 429s and supplier failures.
    const statuses = new Set(t.recorder.exchanges.map((x) => x.response?.status));
    for (const s of [201, 429, 502, 410]) expect(statuses).toContain(s);
    // Every exchange is labelled after the id of the property that sent it, through its context.
    const prefixes = new Set(t.recorder.exchanges.map((x) => /^property:[\w-]+ /.exec(x.label ?? '')?.[0].trim()));
    expect([...prefixes].sort()).toEqual(results.map((r) => r.id).sort());
  });

  it('takes the seed from the context and honours numRuns and only', async () => {
    t = await startContext({}, 99);
    const [r] = await runProperties(t.ctx, { only: ['property:quote-lock'], numRuns: 3 });
    expect(r).toMatchObject({ id: 'property:quote-lock', verdict: 'PASS', details: { seed: 99, numRuns: 3, runs: 3 } });
    await expect(runProperties(t.ctx, { only: ['nope'] })).rejects.toMatchObject({ code: 'E_USAGE' });
  });

  it('skips quote-lock in real time only when its quotes outlive --max-wait, naming the bound', async () => {
    // The mock's quotes live 900 s: over the default 120 s, waiting that out needs a clock that can be moved (or --max-wait 900).
    t = await startContext();
    const [r] = await runProperties({ ...t.ctx, clock: new RealClockDriver() }, { seed: 1, only: ['quote-lock'] });
    expect(r).toMatchObject({ verdict: 'SKIP', message: expect.stringMatching(/^waits 900 s in real time for its quotes to expire, over --max-wait 120 s/) });
  });
});

describe('properties fail with a shrunk counterexample on a broken mock', () => {
  const broken: [string, string, RegExp][] = [
    ['replay-books-again', 'idempotency-model', /(replay|burst)\[k\d/],
    ['replay-ignores-body', 'idempotency-model', /^book\[k\d\],replay\[k\d,otherBody\]$/],
    ['concurrent-double', 'idempotency-model', /^burst\[k\d×\d\]$/],
    ['ratelimit-charges', 'no-charge-on-429-and-failure', /^\[limited\]$/],
    ['failed-booking-charges', 'no-charge-on-429-and-failure', /failing/],
    ['live-price-charged', 'quote-lock', /^wait \d+ ms/],
    ['expired-quote-accepted', 'quote-lock', /^wait \d+ ms/],
  ];
  for (const [defect, name, counterexample] of broken) {
    it(`${name} fails with ${defect}`, async () => {
      t = await startContext({ defects: [defect] });
      const [r] = await runProperties(t.ctx, { seed: 7, only: [name] });
      expect(r!.verdict, r!.message).toBe('FAIL');
      const d = r!.details as Record<string, unknown>;
      expect(d.counterexample).toMatch(counterexample);
      expect(d.path).toMatch(/^\d+(:\d+)*$/);
      const replayPath = d.replayPath === undefined ? '' : ` --property-replay-path ${String(d.replayPath)}`;
      expect(d.replay).toBe(`svc-harness run --only property:${name} --seed 7 --property-path ${String(d.path)}${replayPath}`);
      // The shrunk counterexample once: after the message, or in it where the message already names it.
      expect(r!.message.split(String(d.counterexample)).length).toBeGreaterThanOrEqual(2);
      expect(r!.evidence.length).toBeGreaterThan(0);
    });
  }

  it('replays the counterexample from seed and path alone', async () => {
    t = await startContext({ defects: ['replay-ignores-body'] });
    const [first] = await runProperties(t.ctx, { seed: 7, only: ['idempotency-model'] });
    const d = first!.details as Record<string, unknown>;
    expect(d.replayPath).toBeTypeOf('string');
    const [again] = await runProperties(t.ctx, { seed: 7, only: ['idempotency-model'], path: String(d.path), replayPath: String(d.replayPath) });
    expect(again).toMatchObject({ verdict: 'FAIL', details: { counterexample: (first!.details as Record<string, unknown>).counterexample } });
  });
});
