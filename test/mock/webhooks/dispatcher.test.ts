import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/clock/mock-clock.js';
import { DefectSet } from '../../../src/mock/defects/defect-set.js';
import { WebhookDispatcher } from '../../../src/mock/webhooks/dispatcher.js';
import { startReceiver, type Receiver } from '../../../src/receiver/index.js';
import { verifyServiceWebhookRequest } from '../../../src/protocol/index.js';

const BASE = 5_000;
const FACTOR = 3;
const HOUR = 3_600_000;
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

let clock: MockClock;
let receiver: Receiver;

beforeEach(async () => {
  // Real time stands still for this clock: the schedule's gaps are then exact whatever the machine's load.
  const frozen = Date.now();
  clock = new MockClock(() => frozen);
  receiver = await startReceiver({ now: () => clock.now() });
});
afterEach(async () => {
  clock.close();
  await receiver.close();
});

function dispatcher(defects: string[] = [], timeoutMs?: number): WebhookDispatcher {
  return new WebhookDispatcher({ clock, defects: new DefectSet(defects), baseMs: BASE, factor: FACTOR, ...(timeoutMs ? { timeoutMs } : {}) });
}

function emit(d: WebhookDispatcher, path: string): string | undefined {
  return d.emit({
    agencyId: 'agency-alpha',
    url: `${receiver.url}${path}`,
    webhookSecret: secret,
    type: 'booking.confirmed',
    data: { booking: { booking_id: 'bk_1' } },
  });
}

/** Lets attempt 1 finish, then moves the clock far past every retry at once. */
async function runOut(d: WebhookDispatcher): Promise<void> {
  await d.idle();
  await clock.advance(HOUR);
  await d.idle();
}

describe('WebhookDispatcher', () => {
  it('sends nothing when no endpoint is set', async () => {
    const d = dispatcher();
    expect(d.emit({ agencyId: 'a', url: null, webhookSecret: secret, type: 'booking.confirmed', data: {} })).toBeUndefined();
    await runOut(d);
    expect(d.deliveries()).toEqual([]);
  });

  it('delivers to a healthy receiver in one attempt, with a valid signature and the event body', async () => {
    const d = dispatcher();
    const start = clock.now();
    const id = emit(d, '/ok');
    expect(id).toMatch(/^evt_/);
    await runOut(d);
    const got = receiver.deliveries();
    expect(got).toHaveLength(1);
    const [r] = got;
    expect(r?.headers['x-svc-webhook-id']).toBe(id);
    expect(r?.headers['x-svc-webhook-attempt']).toBe('1');
    expect(r?.headers['content-type']).toBe('application/json');
    expect(Number(r?.headers['x-svc-webhook-timestamp'])).toBe(Math.floor(start / 1000));
    const body = JSON.parse(r?.text ?? '') as Record<string, unknown>;
    expect(body).toMatchObject({ id, type: 'booking.confirmed', agency_id: 'agency-alpha', data: { booking: { booking_id: 'bk_1' } } });
    expect(Math.abs(Date.parse(body.created_at as string) - start)).toBeLessThan(1_000);
    expect(verifyServiceWebhookRequest({ headers: r!.headers, body: r!.body, secret, nowS: Math.floor(start / 1000) })).toEqual({ ok: true });
    expect(d.deliveries()).toEqual([{ event_id: id, type: 'booking.confirmed', attempt: 1, url: `${receiver.url}/ok`, status: 200, at_ms: start }]);
  });

  it('makes exactly 3 attempts to an always-failing receiver: same id, same body, valid signatures, gaps base then base×factor', async () => {
    receiver.script('/fail', { kind: 'always', status: 500 });
    const d = dispatcher();
    const start = clock.now();
    const id = emit(d, '/fail');
    await runOut(d);
    await clock.advance(HOUR);
    await d.idle();
    const got = receiver.deliveries();
    expect(got.map((r) => r.headers['x-svc-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(got.map((r) => r.headers['x-svc-webhook-id']))).toEqual(new Set([id]));
    expect(new Set(got.map((r) => r.text)).size).toBe(1);
    for (const r of got) {
      const ts = Number(r.headers['x-svc-webhook-timestamp']);
      expect(verifyServiceWebhookRequest({ headers: r.headers, body: r.body, secret, nowS: ts })).toEqual({ ok: true });
    }
    const log = d.deliveries();
    expect(log.map((x) => x.at_ms)).toEqual([start, start + BASE, start + BASE + BASE * FACTOR]);
    expect(log.map((x) => x.status)).toEqual([500, 500, 500]);
    expect(got.map((r) => Number(r.headers['x-svc-webhook-timestamp']))).toEqual(log.map((x) => Math.floor(x.at_ms / 1000)));
  });

  it('makes attempt 2 only once base has passed on the clock', async () => {
    receiver.script('/fail', { kind: 'always', status: 503 });
    const d = dispatcher();
    emit(d, '/fail');
    await d.idle();
    await clock.advance(BASE - 1_000);
    await d.idle();
    expect(d.deliveries()).toHaveLength(1);
    await clock.advance(1_000);
    expect(d.deliveries()).toHaveLength(2);
  });

  it('stops after the first 2xx: fail once → 2 attempts', async () => {
    receiver.script('/once', { kind: 'sequence', statuses: [500, 204] });
    const d = dispatcher();
    emit(d, '/once');
    await runOut(d);
    expect(d.deliveries().map((x) => [x.attempt, x.status])).toEqual([
      [1, 500],
      [2, 204],
    ]);
  });

  it('logs status null for a refused connection and for a receiver slower than the timeout', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    receiver.script('/slow', { kind: 'always', status: 200, delayMs: 2_000 });
    const d = dispatcher(['webhook-no-retry'], 200);
    d.emit({ agencyId: 'a', url: `http://127.0.0.1:${port}/x`, webhookSecret: secret, type: 'booking.cancelled', data: {} });
    emit(d, '/slow');
    await d.idle();
    expect(d.deliveries().map((x) => x.status)).toEqual([null, null]);
  });

  it('reset drops pending retries and the log, leaving other clock timers alone', async () => {
    receiver.script('/fail', { kind: 'always', status: 500 });
    const d = dispatcher();
    let other = 0;
    clock.after(HOUR / 2, () => {
      other += 1;
    });
    emit(d, '/fail');
    await d.idle();
    d.reset();
    expect(d.deliveries()).toEqual([]);
    await clock.advance(HOUR);
    await d.idle();
    expect(d.deliveries()).toEqual([]);
    expect(receiver.deliveries()).toHaveLength(1);
    expect(other).toBe(1);
  });

  describe('defects change exactly their behaviour', () => {
    async function failing(defects: string[]): Promise<{ d: WebhookDispatcher; start: number; id: string | undefined }> {
      receiver.script('/fail', { kind: 'always', status: 500 });
      const d = dispatcher(defects);
      const start = clock.now();
      const id = emit(d, '/fail');
      await runOut(d);
      return { d, start, id };
    }

    it('webhook-extra-retry: 4 attempts', async () => {
      const { d, start } = await failing(['webhook-extra-retry']);
      expect(d.deliveries().map((x) => x.at_ms - start)).toEqual([0, BASE, BASE + BASE * FACTOR, BASE + BASE * FACTOR + BASE * FACTOR ** 2]);
    });

    it('webhook-no-retry: 1 attempt', async () => {
      const { d } = await failing(['webhook-no-retry']);
      expect(d.deliveries()).toHaveLength(1);
    });

    it('webhook-new-id: a new id per attempt, schedule unchanged', async () => {
      const { d, start, id } = await failing(['webhook-new-id']);
      const ids = receiver.deliveries().map((r) => r.headers['x-svc-webhook-id']);
      expect(ids).toHaveLength(3);
      expect(ids[0]).toBe(id);
      expect(new Set(ids).size).toBe(3);
      expect(d.deliveries().map((x) => x.at_ms - start)).toEqual([0, BASE, BASE + BASE * FACTOR]);
    });

    it('webhook-constant-backoff: gaps base, base', async () => {
      const { d, start } = await failing(['webhook-constant-backoff']);
      expect(d.deliveries().map((x) => x.at_ms - start)).toEqual([0, BASE, 2 * BASE]);
    });

    it('webhook-bad-signature: signatures fail verification, all else as usual', async () => {
      const { d } = await failing(['webhook-bad-signature']);
      const got = receiver.deliveries();
      expect(got).toHaveLength(3);
      for (const r of got) {
        const ts = Number(r.headers['x-svc-webhook-timestamp']);
        expect(verifyServiceWebhookRequest({ headers: r.headers, body: r.body, secret, nowS: ts })).toEqual({ ok: false, reason: 'signature-mismatch' });
      }
      expect(d.deliveries()).toHaveLength(3);
    });
  });
});
