import { afterEach, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/checks/types.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { loadSuiteParts } from '../../src/runner/suite-parts.js';
import { loadScenarios, parseScenario, runScenario } from '../../src/scenario/index.js';
import { startContext, type TestContext } from './_context.js';

/** A quote lifetime short enough for a test, and a bound shorter still: the quote-expiry scenario's wait is over it. */
const LIFETIME_S = 2;
const MAX_WAIT_MS = 1_000;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function quoteExpiry() {
  const s = (await loadScenarios()).find((x) => x.name === 'quote-expiry');
  if (!s) throw new Error('no shipped scenario quote-expiry');
  return s;
}

/** A mock whose quotes live 2 s, and a context that waits in real time (as against staging) with --max-wait 1. */
async function realTime(): Promise<CheckContext> {
  t = await startContext({ quoteLifetimeS: LIFETIME_S });
  return { ...t.ctx, clock: new RealClockDriver(), maxWaitMs: MAX_WAIT_MS };
}

describe('--max-wait in the scenarios', () => {
  it('skips a scenario whose wait in real time is over the bound, naming the step, the bound and the flag, before it sends anything', async () => {
    const ctx = await realTime();
    const started = Date.now();
    const r = await runScenario(ctx, await quoteExpiry());
    expect(r.verdict, r.message).toBe('SKIP');
    expect(r.message).toBe('steps[1] (wait) waits 2 s in real time, over --max-wait 1 s (raise --max-wait to wait it)');
    expect(Date.now() - started).toBeLessThan(LIFETIME_S * 1000);
    expect(t!.recorder.exchanges.filter((x) => x.label?.startsWith('scenario:quote-expiry'))).toEqual([]);
  });

  it('moves the clock through the same wait with clock control: the bound does not apply', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const r = await runScenario({ ...t.ctx, maxWaitMs: MAX_WAIT_MS }, await quoteExpiry());
    expect(r.verdict, r.message).toBe('PASS');
  });

  it('holds a wait known only at run time against the bound when it comes, and makes a wait within it', async () => {
    const ctx = await realTime();
    const yaml = (wait: string): string =>
      [
        'name: saved-wait',
        'description: a wait read from a saved value',
        'clause: none',
        'steps:',
        '  - set:',
        `      w: ${wait}`,
        '  - wait:',
        '      ms: "{{w}}"',
      ].join('\n');
    const over = await runScenario(ctx, parseScenario(yaml('1500'), 'saved-wait.yaml', ctx.profile));
    expect(over).toMatchObject({ verdict: 'SKIP', message: 'steps[1] (wait) waits 1.5 s in real time, over --max-wait 1 s (raise --max-wait to wait it)' });
    const within = await runScenario(ctx, parseScenario(yaml('200'), 'saved-wait.yaml', ctx.profile));
    expect(within.verdict, within.message).toBe('PASS');
  });

  it('leaves a scenario the bound skips out of the real-time plan: no wait, no request, no agency', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const parts = await loadSuiteParts({ scenarioNames: ['quote-expiry'] });
    const input = { profile: t.ctx.profile, roundTripMs: 10 };
    const views = t.ctx.agencies.map((a, index) => ({ index, id: a.id, open: ['flights'], balance: 100_000 }));
    // Within the bound (the default 120 s), its wait of a quote lifetime is planned (away: shorter than the window, nothing runs beside it).
    expect(await parts.realTimeMs!('scenarios', input)).toBe(LIFETIME_S * 1000);
    expect(await parts.scenarioWaits!(input, true)).toEqual({ beside: 0, away: LIFETIME_S * 1000 });
    // Over it, nothing.
    const bounded = { ...input, maxWaitMs: MAX_WAIT_MS };
    expect(await parts.realTimeMs!('scenarios', bounded)).toBe(0);
    expect(await parts.scenarioWaits!(bounded, true)).toEqual({ beside: 0, away: 0 });
    expect(await parts.casesOf!('scenarios', bounded)).toEqual([{ name: 'quote-expiry', read: 0, write: 0, waits: false }]);
    expect(await parts.agenciesOf!('scenarios', bounded, views)).toEqual([null]);
  });
});
