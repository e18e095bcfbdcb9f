import { describe, expect, test } from 'vitest';
import { lockWaitMs } from '../../../src/checks/quotes/locked-price.js';
import {
  EXPECTED_TURN_WAIT_MS,
  planTurn,
  SHORTEST_TURN_LIFETIME_S,
  targetTime,
  TURN_MARGIN_MS,
  type TargetTime,
} from '../../../src/checks/quotes/minute-turn.js';
import { searchAnswer } from '../_fixtures.js';

/** A minute's turn on the target's clock. */
const TURN = Date.parse('2027-01-01T10:01:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A search answered at target instant `at`, its quote living `lifetimeS`, sent with the harness clock `skewMs` behind the target's. */
function searchAt(at: number, lifetimeS: number, skewMs = 0, date?: string) {
  const s = searchAnswer([{ token: 'qt_a', price: 500, expiresAt: iso(at + lifetimeS * 1000) }], at - skewMs);
  s.exchange.durationMs = 0;
  if (date !== undefined) s.headers = { ...s.headers, date };
  return s;
}

const time = (answeredAt: number, lifetimeS: number): TargetTime => ({
  offsetMs: 0,
  answeredAt,
  expiresAt: answeredAt + lifetimeS * 1000,
  roundTripMs: 20,
  source: 'clock',
});

describe("QT-03's view of the target's clock minutes", () => {
  test("the target's time comes from the answer's Date header, not the harness clock, unless the harness drives the clock", () => {
    const at = TURN - 20_500;
    const s = searchAt(at, 60, 7_000, new Date(at).toUTCString());
    const real = targetTime(s, 60, false);
    expect(real.source).toBe('date-header');
    // The header has whole seconds: the middle of the second is taken.
    expect(real.offsetMs).toBe(7_000);
    expect(real.answeredAt).toBe(at);
    const driven = targetTime(s, 60, true);
    expect(driven).toMatchObject({ source: 'clock', offsetMs: 0, answeredAt: at - 7_000 });
  });

  test('without a Date header it takes the quote expiry less the quote lifetime', () => {
    const at = TURN - 20_500;
    const s = searchAt(at, 60, -4_000);
    delete s.headers['date'];
    const t = targetTime(s, 60, false);
    expect(t.source).toBe('quote-expiry');
    expect(t.offsetMs).toBe(-4_000);
    expect(t.expiresAt).toBe(at + 60_000);
  });

  test('a quote that outlives the next turn with time to book is searched again a margin after the turn', () => {
    const plan = planTurn(time(TURN - 20_000, 60));
    expect(plan).toMatchObject({ kind: 'after-turn', turn: TURN, searchAt: TURN + TURN_MARGIN_MS });
    if (plan.kind !== 'after-turn') return;
    expect(plan.searchBy).toBeLessThan(TURN - 20_000 + 60_000 - TURN_MARGIN_MS);
  });

  test('a turn too late in the quote’s life is met with a new search just before it', () => {
    const plan = planTurn(time(TURN - 57_000, 60));
    expect(plan.kind).toBe('before-turn');
    if (plan.kind !== 'before-turn') return;
    expect(plan.turn).toBe(TURN);
    expect(plan.searchAt).toBeLessThan(TURN - TURN_MARGIN_MS);
    expect(plan.searchBy).toBeLessThanOrEqual(TURN - TURN_MARGIN_MS);
    // The search then answers two margins before the turn: its quote outlives the turn.
    expect(planTurn(time(plan.searchAt, 60)).kind).toBe('after-turn');
  });

  test('a turn within the margin of the search is passed over: the search may have landed on either side', () => {
    expect(planTurn(time(TURN - 1_000, 90))).toMatchObject({ kind: 'after-turn', turn: TURN + 60_000 });
  });

  test('a later turn, after a search that saw the same prices, only while the first quote outlives it', () => {
    const t = time(TURN - 20_000, 150);
    expect(planTurn(t, TURN + 3_000)).toMatchObject({ kind: 'after-turn', turn: TURN + 60_000 });
    expect(planTurn(time(TURN - 20_000, 60), TURN + 3_000).kind).toBe('none');
  });
});

describe('the wait QT-03 announces to the plan', () => {
  test('is the wait its turn plan makes from a search at the target time the run planned at, for quotes living a minute', () => {
    // 30 s before a turn: it searches again a margin after the turn
    expect(lockWaitMs(60, TURN - 30_000)).toBe(30_000 + TURN_MARGIN_MS);
    // 10 s after a turn: the next one comes 50 s later, still within the quote's life
    expect(lockWaitMs(60, TURN + 10_000)).toBe(50_000 + TURN_MARGIN_MS);
    // 1.5 s before a turn: that turn is too close to tell, the next too late for the quote; it searches anew two margins before it, then across it
    expect(lockWaitMs(60, TURN - 1_500)).toBe(61_500 - 2 * TURN_MARGIN_MS + 3 * TURN_MARGIN_MS);
  });

  test('depends on when it starts: planned to start 20 s into the run, 30 s before a turn, it waits 10 s', () => {
    expect(lockWaitMs(60, TURN - 30_000, 20_000)).toBe(10_000 + TURN_MARGIN_MS);
    // started 35 s in, the turn has passed: the next one is 55 s away
    expect(lockWaitMs(60, TURN - 30_000, 35_000)).toBe(55_000 + TURN_MARGIN_MS);
  });

  test('is the expected half minute and a margin without the target time, and nothing for quotes too short to outlive a turn', () => {
    expect(lockWaitMs(60)).toBe(EXPECTED_TURN_WAIT_MS);
    expect(lockWaitMs(SHORTEST_TURN_LIFETIME_S - 1, TURN)).toBe(0);
  });
});
