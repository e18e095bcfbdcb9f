import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE } from '../../src/mock/index.js';
import { loadScenarios, runScenario, runScenarios } from '../../src/scenario/index.js';
import { startContext, type TestContext } from './_context.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The reference fixture's three agencies (REFERENCE-API.md section 2): gamma, the only one with cars, holds USD 50.00. */
function referenceThree() {
  return { agencies: DEFAULT_FIXTURE.agencies.filter((a) => ['agency-alpha', 'agency-beta', 'agency-gamma'].includes(a.agency_id)) };
}

async function scenario(name: string) {
  const s = (await loadScenarios()).find((x) => x.name === name);
  if (!s) throw new Error(`no shipped scenario ${name}`);
  return s;
}

describe('shipped scenarios', () => {
  it("all pass against the clean mock with the reference fixture's three agencies, cars on gamma", async () => {
    t = await startContext({ fixture: referenceThree() });
    const results = await runScenarios(t.ctx);
    expect(results.map((r) => r.id).sort()).toEqual(
      ['book-cancel-refund', 'failed-booking', 'happy-activities', 'happy-cars', 'happy-flights', 'happy-transfers', 'quote-expiry', 'retry-storm'].map(
        (n) => `scenario:${n}`,
      ),
    );
    for (const r of results) expect(r, `${r.id}: ${r.message}`).toMatchObject({ verdict: 'PASS', kind: 'scenario', area: 'scenarios' });
    expect(results.find((r) => r.id === 'scenario:happy-cars')!.details).toMatchObject({ agency: 'agency-gamma' });
    expect(results.find((r) => r.id === 'scenario:retry-storm')!.evidence.length).toBeGreaterThanOrEqual(20);
  });

  it('picks the agency with the product open and the largest wallet', async () => {
    t = await startContext();
    const r = await runScenario(t.ctx, await scenario('happy-cars'));
    expect(r).toMatchObject({ verdict: 'PASS', details: { agency: 'agency-delta' } });
    // Every exchange is labelled after the case's id, through its context.
    const labels = t.recorder.exchanges.map((x) => x.label ?? '');
    expect(labels.length).toBeGreaterThan(4);
    expect(labels.filter((l) => !l.startsWith('scenario:happy-cars '))).toEqual([]);
    expect(labels).toContain('scenario:happy-cars products of agency #3');
  });

  it('skips cleanly when no agency has the product open, or the wallet cannot pay', async () => {
    t = await startContext();
    const noCars = await runScenario({ ...t.ctx, agencies: t.ctx.agencies.slice(0, 2) }, await scenario('happy-cars'));
    expect(noCars).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('has cars open') });
    const poor = await startContext({
      fixture: { agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, wallet: a.products.includes('cars') ? 1 : a.wallet })) },
    });
    try {
      const r = await runScenario(poor.ctx, await scenario('happy-cars'));
      expect(r).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('INSUFFICIENT_FUNDS') });
    } finally {
      await poor.close();
    }
  });

  const broken: [string, string, RegExp][] = [
    ['replay-books-again', 'retry-storm', /steps\[3\]\.repeat\.steps\[0\] iteration 1\/9 \(book "sequential retry"\)/],
    ['replay-differs', 'retry-storm', /sequential retry.*bytes/],
    ['cancel-no-refund', 'book-cancel-refund', /steps\[4\] \(cancel "cancel"\): balance changed by 0/],
    ['statement-drops-refunds', 'book-cancel-refund', /steps\[8\] \(statement\)/],
    ['failed-booking-charges', 'failed-booking', /booking the supplier refuses.*balance changed by -\d+, expected 0/],
    ['expired-quote-accepted', 'quote-expiry', /book the expired quote.*expected 410 QUOTE_EXPIRED/],
  ];
  for (const [defect, name, message] of broken) {
    it(`${name} fails, naming the step, with defect ${defect}`, async () => {
      t = await startContext({ defects: [defect] });
      const r = await runScenario(t.ctx, await scenario(name));
      expect(r.verdict, r.message).toBe('FAIL');
      expect(r.message).toMatch(message);
      expect(r.details?.failedStep).toBeTypeOf('string');
      expect(r.evidence.length).toBeGreaterThan(0);
      expect(t.ctx.exchanges().map((x) => x.id)).toEqual(expect.arrayContaining(r.evidence));
    });
  }
});
