import { connect } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RECEIVER_MAX_BODY_BYTES, startReceiver, type Receiver } from '../../src/receiver/index.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.dump();
  return res.statusCode;
}

describe('webhook receiver', () => {
  it('binds loopback on a free port, answers 200 by default and records the raw delivery', async () => {
    let fake = 1_000;
    receiver = await startReceiver({ now: () => fake });
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    fake = 42_000;
    expect(await post(`${receiver.url}/wh/a?x=1`, '{"a": 1}', { 'X-SVC-Webhook-Id': 'evt_1' })).toBe(200);
    const [d] = receiver.deliveries();
    expect(d).toMatchObject({ path: '/wh/a', method: 'POST', text: '{"a": 1}', receivedAt: 42_000, status: 200, seq: 1 });
    expect(d?.body.equals(Buffer.from('{"a": 1}'))).toBe(true);
    expect(d?.headers['x-svc-webhook-id']).toBe('evt_1');
  });

  it('answers per path as scripted: always, and a sequence whose last status repeats', async () => {
    receiver = await startReceiver();
    receiver.script('/a', { kind: 'always', status: 500 });
    receiver.script('/b', { kind: 'sequence', statuses: [503, 200] });
    const a = [await post(`${receiver.url}/a`, '{}'), await post(`${receiver.url}/a`, '{}')];
    const b = [await post(`${receiver.url}/b`, '{}'), await post(`${receiver.url}/b`, '{}'), await post(`${receiver.url}/b`, '{}')];
    expect(a).toEqual([500, 500]);
    expect(b).toEqual([503, 200, 200]);
    expect(receiver.deliveries({ path: '/b' }).map((d) => d.status)).toEqual([503, 200, 200]);
    expect(receiver.deliveries({ pathPrefix: '/' })).toHaveLength(5);
    expect(receiver.deliveries((d) => d.status === 500)).toHaveLength(2);
    receiver.script('/b', { kind: 'sequence', statuses: [418, 200] });
    expect(await post(`${receiver.url}/b`, '{}')).toBe(418);
    expect(() => receiver?.script('/c', { kind: 'always', status: 99 })).toThrow(/100\.\.599/);
  });

  it('waitFor resolves on arrival, and with the shortfall at its timeout', async () => {
    receiver = await startReceiver();
    const waiting = receiver.waitFor((d) => d.path === '/w', 5_000, 2);
    await post(`${receiver.url}/w`, '1');
    await post(`${receiver.url}/w`, '2');
    expect((await waiting).map((d) => d.text)).toEqual(['1', '2']);
    const none = await receiver.waitFor((d) => d.path === '/never', 50);
    expect(none).toEqual([]);
  });

  it('refuses bodies over 1 MiB with 413 and records nothing, then keeps working', async () => {
    receiver = await startReceiver();
    expect(await post(`${receiver.url}/big`, Buffer.alloc(RECEIVER_MAX_BODY_BYTES + 1, 0x61))).toBe(413);
    expect(receiver.deliveries()).toHaveLength(0);
    expect(await post(`${receiver.url}/ok`, '{}')).toBe(200);
  });

  it('survives malformed HTTP and clears its state', async () => {
    receiver = await startReceiver();
    const url = new URL(receiver.url);
    await new Promise<void>((resolve) => {
      const s = connect(Number(url.port), url.hostname, () => s.end('NOT HTTP AT ALL\r\n\r\n'));
      s.on('close', () => resolve());
      s.on('error', () => resolve());
      s.resume();
    });
    expect(await post(`${receiver.url}/x`, '{}')).toBe(200);
    receiver.clear();
    expect(receiver.deliveries()).toEqual([]);
  });

  it('hands out publicUrl when given', async () => {
    receiver = await startReceiver({ publicUrl: 'https://hooks.example.test/base/' });
    expect(receiver.url).toBe('https://hooks.example.test/base');
    expect(receiver.boundUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });
});

describe('webhook receiver memory', () => {
  it('keeps large bodies whole only within its budget, then a prefix with size and SHA-256', async () => {
    const { createHash } = await import('node:crypto');
    const { deliveryKeeper } = await import('../../src/receiver/delivery-capture.js');
    const keeper = deliveryKeeper(1024, 4096);
    const big = Buffer.alloc(3000, 0x61);
    expect(keeper.keep(Buffer.from('{}'))).toEqual({ body: Buffer.from('{}') });
    expect(keeper.keep(big).truncated).toBeUndefined();
    const cut = keeper.keep(big);
    expect(cut).toMatchObject({ bytes: 3000, sha256: createHash('sha256').update(big).digest('hex'), truncated: true });
    expect(cut.body.length).toBe(1024);
    keeper.reset();
    expect(keeper.keep(big).truncated).toBeUndefined();
  });

  it('holds a bounded amount for a flood of 1 MiB deliveries, small ones stay whole', async () => {
    receiver = await startReceiver();
    const big = Buffer.alloc(RECEIVER_MAX_BODY_BYTES, 0x62);
    for (let i = 0; i < 48; i++) expect(await post(`${receiver.url}/wh`, big)).toBe(200);
    expect(await post(`${receiver.url}/wh`, '{"small":true}')).toBe(200);
    const all = receiver.deliveries();
    const held = all.reduce((n, d) => n + d.body.length, 0);
    expect(held).toBeLessThanOrEqual(40 * 1024 * 1024);
    const last = all[all.length - 2]!;
    expect(last).toMatchObject({ truncated: true, bytes: RECEIVER_MAX_BODY_BYTES });
    expect(all[all.length - 1]!.text).toBe('{"small":true}');
  });
});
