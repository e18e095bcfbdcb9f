import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { compileJourney } from '../../src/load/generate/scenario-requests.js';
import { parseScenario } from '../../src/scenario/load-scenario.js';
import { req } from './_request.js';

const YAML = `
name: journey
product: flights
steps:
  - wait: { s: 1 }
  - search:
    save:
      quote: cheapest.quote_token
      price: cheapest.price
  - book:
      quote: "{{quote}}"
      client_reference: "load-{{unique}}"
    save:
      booking: booking_id
  - repeat:
      count: 2
      steps:
        - get_booking:
            booking: "{{booking}}"
  - cancel:
      booking: "{{booking}}"
`;

describe('compileJourney', () => {
  const journey = compileJourney(parseScenario(YAML, 'journey.yaml'), DEFAULT_PROFILE);

  it('turns steps into requests, inlining repeats and leaving waits out', () => {
    expect(journey.steps.map((s) => s.op)).toEqual(['search', 'book', 'get_booking', 'get_booking', 'cancel']);
    expect(journey.steps.map((s) => s.bucket)).toEqual(['read', 'write', 'read', 'read', 'write']);
    expect(journey.skipped.join()).toMatch(/wait is not honoured/);
  });

  it('flows the quote token from the search into the booking, with fresh idempotency keys and references', () => {
    const [search, book] = journey.steps as [(typeof journey.steps)[0], (typeof journey.steps)[0]];
    const ctx = { vars: {} as Record<string, unknown> };
    const s = search.build(ctx)!;
    expect(s).toMatchObject({ method: 'POST', path: '/flights/search' });
    expect(JSON.parse(s.body!)).toEqual({ criteria: DEFAULT_PROFILE.search_criteria.flights });
    expect(book.build(ctx)).toBeUndefined(); // no quote saved yet: the journey restarts
    search.after(ctx, 200, {
      results: [
        { quote_token: 'qt_b', price: { amount: 900 } },
        { quote_token: 'qt_a', price: { amount: 500 } },
      ],
    });
    expect(ctx.vars).toEqual({ quote: 'qt_a', price: 500 });
    const b1 = book.build(ctx)!;
    const b2 = book.build(ctx)!;
    expect(JSON.parse(b1.body!).quote_token).toBe('qt_a');
    expect(JSON.parse(b1.body!).client_reference).toMatch(/^load-/);
    expect(b1.headers['idempotency-key']).toBeTruthy();
    expect(b1.headers['idempotency-key']).not.toBe(b2.headers['idempotency-key']);
    expect(JSON.parse(b1.body!).client_reference).not.toBe(JSON.parse(b2.body!).client_reference);
    const view = book.after(ctx, 201, { booking_id: 'bk_1', status: 'confirmed', price: { amount: 500 } });
    expect(view).toMatchObject({ booking_id: 'bk_1', price: 500 });
    expect(journey.steps[4]!.build(ctx)!.path).toBe('/flights/bookings/bk_1/cancellations');
  });

  it('forgets a saved value when its step was refused', () => {
    const [search] = journey.steps;
    const ctx = { vars: { quote: 'old' } as Record<string, unknown> };
    search!.after(ctx, 429, undefined);
    expect(ctx.vars.quote).toBeUndefined();
  });
});

describe('statuses a scenario expects on purpose', () => {
  it('are the failure statuses of expect.status and expect.code, never a success', async () => {
    const { loadScenarioFile } = await import('../../src/scenario/load-scenario.js');
    const failed = compileJourney(await loadScenarioFile('scenarios/failed-booking.yaml'), DEFAULT_PROFILE);
    const book = failed.steps.find((s) => s.op === 'book')!;
    expect([...book.expected]).toEqual([DEFAULT_PROFILE.errors.supplier_unavailable.status]);
    for (const s of failed.steps.filter((x) => x !== book)) expect([...s.expected]).toEqual([]);
  });
});

describe('LoadRecorder', () => {
  it('counts expected refusals apart from errors, and an unanswered request as an error even when a refusal was expected', async () => {
    const { LoadRecorder, UNKNOWN_OUTCOME } = await import('../../src/load/measure/load-recorder.js');
    const r = new LoadRecorder({ rateLimitedStatus: 429 });
    r.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: 0, receivedAt: 5, latencyMs: 5, status: 201 }));
    r.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: 10, receivedAt: 15, latencyMs: 5, status: 502, expected: true }));
    r.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: 20, receivedAt: 25, latencyMs: 5, status: 502 }));
    r.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: 30, receivedAt: 35, latencyMs: 5, status: 429, retryAfterS: 60, expected: true }));
    r.record(req({ op: 'book', agency: 'a', bucket: 'write', sentAt: 40, receivedAt: 45, latencyMs: 0, status: UNKNOWN_OUTCOME, expected: true }));
    expect(r.counts()).toEqual({ requests: 5, ok: 1, rateLimited: 1, errors: 2, expected: 1, cutOff: 0 });
    expect(r.figures().operations.book).toMatchObject({ count: 5, ok: 1, rateLimited: 1, errors: 2, expected: 1 });
  });

  it('counts a request cut off at the stop apart: no answer, no error, yet possibly admitted for the bucket verdicts', async () => {
    const { LoadRecorder, UNKNOWN_OUTCOME } = await import('../../src/load/measure/load-recorder.js');
    const r = new LoadRecorder({ rateLimitedStatus: 429 });
    r.record(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: 0, receivedAt: 5, latencyMs: 5, status: 200 }));
    r.recordCutOff(req({ op: 'search', agency: 'a', bucket: 'read', sentAt: 10, receivedAt: 2_000 }));
    expect(r.counts()).toEqual({ requests: 1, ok: 1, rateLimited: 0, errors: 0, expected: 0, cutOff: 1 });
    expect(r.figures().operations.search).toMatchObject({ count: 1, errors: 0, cutOff: 1 });
    expect(r.log('a', 'read').status).toEqual([200, UNKNOWN_OUTCOME]);
  });

  it("tells its subscribers the object it was handed, outcome set, and counts the profile's rate-limit status as rate-limited", async () => {
    const { LoadRecorder } = await import('../../src/load/measure/load-recorder.js');
    const r = new LoadRecorder({ rateLimitedStatus: 503 });
    const told: unknown[] = [];
    r.subscribe((x) => told.push(x));
    const refused = req({
      op: 'search',
      method: 'POST',
      agency: 'a',
      bucket: 'read',
      sentAt: 0,
      receivedAt: 5,
      latencyMs: 5,
      status: 503,
      retryAfterS: 30,
      remaining: 0,
    });
    const failed = req({ op: 'book', method: 'POST', agency: 'a', bucket: 'write', sentAt: 10, receivedAt: 15, latencyMs: 5, status: 429, code: 'SLOW_DOWN' });
    r.record(refused);
    r.record(failed);
    expect(told).toHaveLength(2);
    expect(told[0]).toBe(refused);
    expect(told[0]).toMatchObject({ method: 'POST', status: 503, retryAfterS: 30, remaining: 0, outcome: 'rateLimited' });
    expect(told[1]).toBe(failed);
    expect(told[1]).toMatchObject({ method: 'POST', status: 429, code: 'SLOW_DOWN', outcome: 'errors' });
    expect(r.counts()).toEqual({ requests: 2, ok: 0, rateLimited: 1, errors: 1, expected: 0, cutOff: 0 });
    expect(r.figures().operations.book!.errorsBy).toEqual({ '429 SLOW_DOWN': 1 });
    // The bucket verdicts read refusals by the same status; an answer of that status tells a reading of a full bucket.
    expect(r.log('a', 'read')).toMatchObject({ rateLimitedStatus: 503, status: [503], retryAfterS: [30], remaining: [0] });
    expect(r.reading(refused, { limit: 10, remaining: 0 })).toBe(true);
    expect(r.log('a', 'read').start).toMatchObject({ limit: 10, remaining: 0, admitted: false });
    r.headers(refused, { limit: 10, remaining: 0 });
    r.headers(failed, { limit: 3, remaining: 0 });
    expect(r.log('a', 'read').headers).toMatchObject({ judged: 1 });
    expect(r.log('a', 'write').headers).toBeUndefined();
  });
});
