import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVICE_WEBHOOK_HEADERS,
  serviceWebhookHeaders,
  serviceWebhookKey,
  signServiceWebhook,
  SVC_WEBHOOK_ATTEMPT_HEADER,
  SVC_WEBHOOK_ID_HEADER,
  SVC_WEBHOOK_SIGNATURE_HEADER,
  SVC_WEBHOOK_TIMESTAMP_HEADER,
  verifyServiceWebhook,
  verifyServiceWebhookRequest,
} from '../../src/protocol/index.js';

const keyBytes = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const secret = `whsec_${keyBytes.toString('base64')}`;
const id = 'evt_2fQk8ZpL';
const timestamp = 1_790_000_000;
const body = '{"id":"evt_2fQk8ZpL","type":"booking.confirmed","data":{"booking":{"price":{"amount":12345,"currency":"EUR"}}}}';

describe('service webhook signature', () => {
  it('matches an independently computed known vector', () => {
    const expected = createHmac('sha256', keyBytes).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(signServiceWebhook({ id, timestamp, body, secret })).toBe(`v1,${expected}`);
    expect(signServiceWebhook({ id, timestamp: String(timestamp), body: Buffer.from(body), secret })).toBe(`v1,${expected}`);
  });

  it('uses the base64-decoded key, not the text of the secret', () => {
    expect(serviceWebhookKey(secret)?.equals(keyBytes)).toBe(true);
    const wrong = createHmac('sha256', Buffer.from(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(signServiceWebhook({ id, timestamp, body, secret })).not.toBe(`v1,${wrong}`);
  });

  it('round-trips', () => {
    const signatureHeader = signServiceWebhook({ id, timestamp, body, secret });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader, secret, nowS: timestamp })).toEqual({ ok: true });
  });

  it('accepts a space-separated list in which one v1 matches, and ignores other versions', () => {
    const good = signServiceWebhook({ id, timestamp, body, secret });
    const other = signServiceWebhook({ id, timestamp, body, secret: `whsec_${randomBytes(32).toString('base64')}` });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader: `${other} v2,abc ${good}`, secret, nowS: timestamp }).ok).toBe(true);
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader: `${other} v2,abc`, secret, nowS: timestamp })).toEqual({
      ok: false,
      reason: 'signature-mismatch',
    });
  });

  it('refuses any changed byte of body, id, timestamp or signature', () => {
    const signatureHeader = signServiceWebhook({ id, timestamp, body, secret });
    const raw = Buffer.from(body);
    for (let i = 0; i < raw.length; i++) {
      const changed = Buffer.from(raw);
      changed[i] = (changed[i] ?? 0) ^ 0x01;
      const r = verifyServiceWebhook({ id, timestamp, body: changed, signatureHeader, secret, nowS: timestamp });
      expect(r.ok, `byte ${i}`).toBe(false);
    }
    expect(verifyServiceWebhook({ id: `${id}x`, timestamp, body, signatureHeader, secret, nowS: timestamp }).ok).toBe(false);
    expect(verifyServiceWebhook({ id, timestamp: timestamp + 1, body, signatureHeader, secret, nowS: timestamp }).ok).toBe(false);
    const sig = Buffer.from(signatureHeader.slice(3), 'base64');
    for (let i = 0; i < sig.length; i++) {
      const changed = Buffer.from(sig);
      changed[i] = (changed[i] ?? 0) ^ 0x80;
      const r = verifyServiceWebhook({ id, timestamp, body, signatureHeader: `v1,${changed.toString('base64')}`, secret, nowS: timestamp });
      expect(r).toEqual({ ok: false, reason: 'signature-mismatch' });
    }
  });

  it('refuses a timestamp outside the tolerance, unless the tolerance is infinite', () => {
    const signatureHeader = signServiceWebhook({ id, timestamp, body, secret });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader, secret, nowS: timestamp + 300 }).ok).toBe(true);
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader, secret, nowS: timestamp + 301 })).toEqual({
      ok: false,
      reason: 'timestamp-outside-tolerance',
    });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader, secret, nowS: timestamp + 3600, toleranceS: Infinity }).ok).toBe(true);
  });

  it('names malformed input without throwing', () => {
    const ok = signServiceWebhook({ id, timestamp, body, secret });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader: undefined, secret })).toEqual({ ok: false, reason: 'missing-header' });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader: 'garbage', secret })).toEqual({ ok: false, reason: 'malformed-header' });
    expect(verifyServiceWebhook({ id, timestamp: '12a', body, signatureHeader: ok, secret })).toEqual({ ok: false, reason: 'malformed-timestamp' });
    expect(verifyServiceWebhook({ id, timestamp, body, signatureHeader: ok, secret: 'whsec_***' })).toEqual({ ok: false, reason: 'bad-secret' });
    expect(() => signServiceWebhook({ id, timestamp, body, secret: 'whsec_' })).toThrow(TypeError);
  });

  it('builds and verifies the reference headers, with renamed headers too', () => {
    expect(DEFAULT_SERVICE_WEBHOOK_HEADERS).toEqual({
      id: SVC_WEBHOOK_ID_HEADER,
      timestamp: SVC_WEBHOOK_TIMESTAMP_HEADER,
      signature: SVC_WEBHOOK_SIGNATURE_HEADER,
      attempt: SVC_WEBHOOK_ATTEMPT_HEADER,
    });
    const headers = serviceWebhookHeaders({ id, timestamp, attempt: 2, body, secret });
    expect(headers['X-SVC-Webhook-Attempt']).toBe('2');
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyServiceWebhookRequest({ headers: lower, body, secret, nowS: timestamp }).ok).toBe(true);
    const names = { id: 'x-a', timestamp: 'x-b', signature: 'x-c', attempt: 'x-d' };
    const renamed = serviceWebhookHeaders({ id, timestamp, attempt: 1, body, secret, names });
    expect(verifyServiceWebhookRequest({ headers: renamed, body, secret, names, nowS: timestamp }).ok).toBe(true);
    expect(verifyServiceWebhookRequest({ headers: renamed, body, secret, nowS: timestamp })).toEqual({ ok: false, reason: 'missing-header' });
  });
});
