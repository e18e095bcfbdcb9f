import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { startMock, type MockClient, type TestResponse } from '../helpers/mock-client.js';
import { fixtureWithLimits } from '../helpers/mock-fixture.js';

let mock: RunningMock;
let alpha: MockClient;
beforeAll(async () => {
  ({ mock, alpha } = await startMock({ fixture: fixtureWithLimits({ read: 100_000, write: 100_000 }, 2_000_000), supplierLatencyMs: 3 }));
});
afterAll(async () => mock.close());

test('200 concurrent bookings and cancellations keep balance = opening − debits + refunds, entry by entry', async () => {
  const quotes: string[] = [];
  for (let i = 0; quotes.length < 90; i++) {
    const r = await alpha.post('/v1/transfers/search', { criteria: { pickup: `P${i}`, dropoff: 'D', date: '2026-12-01', passengers: 2 } });
    for (const x of r.json.results) quotes.push(x.quote_token);
  }
  const body = (token: string): Record<string, unknown> => ({ quote_token: token, travellers: [{ first_name: 'A', last_name: 'B' }] });
  // Phase 1: 120 bookings: distinct keys, repeated keys (same body), and quotes reused under new keys.
  const ops: Array<Promise<TestResponse>> = [];
  for (let i = 0; i < 80; i++) ops.push(alpha.post('/v1/transfers/bookings', body(quotes[i]!), { idempotencyKey: `b-${i}` }));
  for (let i = 0; i < 20; i++) ops.push(alpha.post('/v1/transfers/bookings', body(quotes[i]!), { idempotencyKey: `b-${i}` }));
  for (let i = 0; i < 20; i++) ops.push(alpha.post('/v1/transfers/bookings', body(quotes[i + 20]!), { idempotencyKey: `b-dup-${i}` }));
  const booked = await Promise.all(ops);
  expect(booked.every((r) => [201, 409].includes(r.status))).toBe(true);
  const bookings = new Map<string, number>();
  for (const r of booked) if (r.status === 201) bookings.set(r.json.booking_id, r.json.price.amount);
  expect(bookings.size).toBe(80);

  // Phase 2: 80 cancellations over distinct and repeated keys, with double cancellations under new keys.
  const ids = [...bookings.keys()];
  const cancels: Array<Promise<TestResponse>> = [];
  for (let i = 0; i < 40; i++) cancels.push(alpha.post(`/v1/transfers/bookings/${ids[i]}/cancellations`, {}, { idempotencyKey: `c-${i}` }));
  for (let i = 0; i < 20; i++) cancels.push(alpha.post(`/v1/transfers/bookings/${ids[i]}/cancellations`, {}, { idempotencyKey: `c-${i}` }));
  for (let i = 0; i < 20; i++) cancels.push(alpha.post(`/v1/transfers/bookings/${ids[i + 20]}/cancellations`, {}, { idempotencyKey: `c-other-${i}` }));
  const cancelled = await Promise.all(cancels);
  expect(cancelled.every((r) => [201, 409].includes(r.status))).toBe(true);
  const refunds = new Map<string, number>();
  for (const r of cancelled) if (r.status === 201) refunds.set(r.json.booking_id, r.json.refund.amount);
  expect(refunds.size).toBe(40);

  const debitSum = [...bookings.values()].reduce((a, b) => a + b, 0);
  const refundSum = [...refunds.values()].reduce((a, b) => a + b, 0);
  const balance = await alpha.balance();
  expect(balance).toBe(2_000_000 - debitSum + refundSum);

  const entries: Array<{ type: string; amount: number; balance_after: number; booking_id: string }> = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: TestResponse = await alpha.get(`/v1/wallet/statement?limit=37${cursor ? `&cursor=${cursor}` : ''}`);
    entries.push(...page.json.entries);
    cursor = page.json.next_cursor;
  }
  expect(entries).toHaveLength(120);
  // Oldest first: every entry's balance_after follows from the one before.
  let running = 2_000_000;
  for (const e of [...entries].reverse()) {
    running += e.type === 'debit' ? -e.amount : e.amount;
    expect(e.balance_after).toBe(running);
    expect(e.type === 'debit' ? bookings.get(e.booking_id) : refunds.get(e.booking_id)).toBe(e.amount);
  }
  expect(running).toBe(balance);
  expect(
    entries
      .filter((e) => e.type === 'debit')
      .map((e) => e.booking_id)
      .sort(),
  ).toEqual([...bookings.keys()].sort());
  expect(
    entries
      .filter((e) => e.type === 'refund')
      .map((e) => e.booking_id)
      .sort(),
  ).toEqual([...refunds.keys()].sort());
});
