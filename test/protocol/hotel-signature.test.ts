import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  HOTEL_WEBHOOK_SIGNATURE_HEADER,
  parseHotelSignature,
  signHotelWebhook,
  verifyHotelWebhook,
  verifyHotelWebhookRequest,
} from '../../src/protocol/index.js';

const secret = 'hwsec_test_alpha_0123456789';
const t = 1_790_000_000;
const body = '{"id":"hevt_1","type":"hotel.booking.confirmed","data":{"reference":"HB-1"}}';

describe('hotel webhook signature', () => {
  it('matches an independently computed known vector', () => {
    const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest('hex');
    expect(signHotelWebhook({ timestamp: t, body, secret })).toBe(`t=${t},v1=${hex}`);
  });

  it('round-trips and parses', () => {
    const signatureHeader = signHotelWebhook({ timestamp: t, body, secret });
    expect(parseHotelSignature(signatureHeader)?.t).toBe(String(t));
    expect(verifyHotelWebhook({ body, signatureHeader, secret, nowS: t })).toEqual({ ok: true });
    expect(verifyHotelWebhookRequest({ headers: { 'x-webhook-signature': signatureHeader }, body, secret, nowS: t }).ok).toBe(true);
    expect(HOTEL_WEBHOOK_SIGNATURE_HEADER).toBe('X-Webhook-Signature');
  });

  it('refuses any changed byte of the body, a changed t, or a signature over the body alone', () => {
    const signatureHeader = signHotelWebhook({ timestamp: t, body, secret });
    const raw = Buffer.from(body);
    for (let i = 0; i < raw.length; i++) {
      const changed = Buffer.from(raw);
      changed[i] = (changed[i] ?? 0) ^ 0x01;
      expect(verifyHotelWebhook({ body: changed, signatureHeader, secret, nowS: t }).ok, `byte ${i}`).toBe(false);
    }
    const v1 = signatureHeader.split('v1=')[1];
    expect(verifyHotelWebhook({ body, signatureHeader: `t=${t + 1},v1=${v1}`, secret, nowS: t })).toEqual({ ok: false, reason: 'signature-mismatch' });
    const bodyOnly = createHmac('sha256', Buffer.from(secret)).update(body).digest('hex');
    expect(verifyHotelWebhook({ body, signatureHeader: `t=${t},v1=${bodyOnly}`, secret, nowS: t }).ok).toBe(false);
    expect(verifyHotelWebhook({ body, signatureHeader, secret: `${secret}x`, nowS: t }).ok).toBe(false);
  });

  it('checks the tolerance and names malformed headers', () => {
    const signatureHeader = signHotelWebhook({ timestamp: t, body, secret });
    expect(verifyHotelWebhook({ body, signatureHeader, secret, nowS: t - 301 })).toEqual({ ok: false, reason: 'timestamp-outside-tolerance' });
    expect(verifyHotelWebhook({ body, signatureHeader, secret, nowS: t + 9999, toleranceS: Infinity }).ok).toBe(true);
    expect(verifyHotelWebhook({ body, signatureHeader: undefined, secret })).toEqual({ ok: false, reason: 'missing-header' });
    expect(verifyHotelWebhook({ body, signatureHeader: 'v1=abc', secret })).toEqual({ ok: false, reason: 'malformed-header' });
    expect(verifyHotelWebhook({ body, signatureHeader: 't=x,v1=abc', secret })).toEqual({ ok: false, reason: 'malformed-timestamp' });
  });
});
