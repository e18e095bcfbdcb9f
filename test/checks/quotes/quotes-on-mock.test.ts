import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckContext } from '../../../src/checks/types.js';
import { quotesChecks } from '../../../src/checks/quotes/index.js';
import { mislabelled, notPassing, startCheckTarget, type CheckTarget } from '../_context.js';

let t: CheckTarget;
beforeAll(async () => {
  t = await startCheckTarget({});
});
afterAll(async () => t.close());

describe('quotes checks against the mock', () => {
  test('every quotes check passes on the mock without defects', async () => {
    await t.defects([]);
    const out = await t.run(quotesChecks);
    expect(notPassing(out)).toEqual([]);
    expect(mislabelled(t), 'every exchange a check sends is labelled with its id').toEqual([]);
    for (const o of Object.values(out)) expect(o.evidence?.length).toBeGreaterThan(0);
  });

  test.each([
    ['expired-quote-accepted', 'QT-02'],
    ['live-price-charged', 'QT-03'],
  ])('defect %s makes %s fail with evidence', async (defect, id) => {
    await t.defects([defect]);
    const check = quotesChecks.find((c) => c.id === id)!;
    const out = await check.run(t.context(id));
    expect(out.verdict, out.message).toBe('FAIL');
    expect(out.evidence?.length).toBeGreaterThan(0);
    const ids = new Set(t.recorder.exchanges.map((x) => x.id));
    for (const e of out.evidence ?? []) expect(ids.has(e)).toBe(true);
  });
});

describe('QT-03 with quotes living 60 s (searched across a clock minute turn, the lease given back meanwhile)', () => {
  let short: CheckTarget;
  beforeAll(async () => {
    short = await startCheckTarget({ quoteLifetimeS: 60 });
  });
  afterAll(async () => short.close());
  const check = quotesChecks.find((c) => c.id === 'QT-03')!;

  /** Moves the mock's clock to `second` s into a minute, with a fresh run and `defects` on. */
  async function at(second: number, defects: string[] = []): Promise<void> {
    await short.defects(defects);
    const phase = short.mock.clock.now() % 60_000;
    await short.mock.advance((second * 1000 - phase + 60_000) % 60_000);
  }

  /** QT-03's context, counting how often it gives its lease back and takes it; `lateMs(n)` is how long the n-th take waits (target time). */
  function leased(lateMs: (n: number) => number = () => 0): { ctx: CheckContext; narrowed: Array<readonly string[]>; widened: () => number } {
    const narrowed: Array<readonly string[]> = [];
    let widened = 0;
    const ctx: CheckContext = {
      ...short.context('QT-03'),
      narrowLease: (keep) => narrowed.push(keep),
      widenLease: async () => {
        const late = lateMs(widened++);
        if (late > 0) await short.mock.advance(late);
      },
    };
    return { ctx, narrowed, widened: () => widened };
  }

  /** QT-03's searches of this run, with the minute each was answered in, and its booking. */
  function sent(from: number) {
    const xs = short.recorder.exchanges.slice(from).filter((x) => x.label?.startsWith('QT-03'));
    const searches = xs.filter((x) => x.request.url.endsWith('/search'));
    const booking = xs.find((x) => x.label === 'QT-03 booking of the first quote');
    return { searches, booking, labels: searches.map((x) => x.label) };
  }

  const minute = (x: { startedAt: number }) => Math.floor(x.startedAt / 60_000);

  test('passes when the next turn comes early in the quote’s life: the second search a minute later, the booking within the first quote’s life, nothing held while waiting', async () => {
    await at(10);
    const from = short.recorder.exchanges.length;
    const { ctx, narrowed, widened } = leased();
    const out = await check.run(ctx);
    expect(out.verdict, out.message).toBe('PASS');
    const { searches, booking, labels } = sent(from);
    expect(labels).toEqual(['QT-03 first search', 'QT-03 same search after clock minute turn 1']);
    expect(minute(searches[1]!)).toBe(minute(searches[0]!) + 1);
    const expiresAt = Date.parse(JSON.parse(searches[0]!.response!.body).results[0].quote_expires_at);
    expect(booking!.startedAt).toBeLessThan(expiresAt);
    expect(narrowed).toEqual([[]]);
    expect(widened()).toBe(1);
  });

  test('fails on live-price-charged', async () => {
    await at(10, ['live-price-charged']);
    const out = await check.run(leased().ctx);
    expect(out.verdict, out.message).toBe('FAIL');
    expect(out.message).toContain('was charged');
  });

  test.each([
    ['PASS', []],
    ['FAIL', ['live-price-charged']],
  ])('when the turn comes too late in the quote’s life, it searches anew just before it and books that quote after it (%s)', async (verdict, defects) => {
    // The turn 58 s after the first search: a 60 s quote would not leave the time to book it after the turn.
    await at(2, defects);
    const from = short.recorder.exchanges.length;
    const { ctx, narrowed } = leased();
    const out = await check.run(ctx);
    expect(out.verdict, out.message).toBe(verdict);
    const { searches, booking, labels } = sent(from);
    expect(labels).toEqual(['QT-03 first search', "QT-03 search just before the clock minute's turn", 'QT-03 same search after clock minute turn 1']);
    expect(minute(searches[1]!)).toBe(minute(searches[0]!));
    expect(minute(searches[2]!)).toBe(minute(searches[1]!) + 1);
    const booked = JSON.parse(booking!.request.body!) as Record<string, unknown>;
    const token = (JSON.parse(searches[1]!.response!.body).results as Array<{ quote_token: string }>).map((r) => r.quote_token);
    expect(token).toContain(booked['quote_token']);
    expect(narrowed).toHaveLength(2);
  });

  test('when its lease comes back after the quote ran out, it starts over once with a new search', async () => {
    await at(10);
    const from = short.recorder.exchanges.length;
    const out = await check.run(leased((n) => (n === 0 ? 70_000 : 0)).ctx);
    expect(out.verdict, out.message).toBe('PASS');
    expect(sent(from).labels).toContain('QT-03 first search again');
    expect(short.log.some((l) => l.includes('too late to book its quote before it expired; starting over'))).toBe(true);
  });

  test('when its lease comes back too late twice, it skips saying why rather than booking an expired quote', async () => {
    await at(10, ['live-price-charged']);
    const from = short.recorder.exchanges.length;
    const out = await check.run(leased(() => 70_000).ctx);
    expect(out.verdict, out.message).toBe('SKIP');
    expect(out.message).toMatch(/too late to book its quote before it expired, after starting over once/);
    expect(sent(from).booking).toBeUndefined();
  });
});
