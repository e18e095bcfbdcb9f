import { describe, expect, it } from 'vitest';
import { redactor, REDACTED } from '../../src/profile/redactor.js';
import { findSecret } from '../../src/profile/secret-forms.js';
import { secretLeaks } from '../helpers/secret-grep.js';

const SECRET = 'whsec/Zq+8v3kP_t0p-s3cr3t==';
const redact = redactor([SECRET]);

describe('redactor', () => {
  it('redacts the base64 copy of a body and keeps it a faithful copy of the redacted text', () => {
    for (const prefix of ['', 'a', 'ab']) {
      const body = `${prefix}{"url":"http://x","secret":"${SECRET}"}`;
      const out = redact({ body, bodyBase64: Buffer.from(body).toString('base64') });
      expect(out.body).toBe(`${prefix}{"url":"http://x","secret":"${REDACTED}"}`);
      expect(Buffer.from(out.bodyBase64, 'base64').toString('utf8')).toBe(out.body);
      expect(secretLeaks(JSON.stringify(out), SECRET)).toEqual([]);
    }
  });

  it('redacts base64url, URL-encoded and JSON-escaped forms, and base64 inside longer text', () => {
    const samples = [
      Buffer.from(`x${SECRET}y`).toString('base64url'),
      `https://t.example/cb?s=${encodeURIComponent(SECRET)}`,
      `https://t.example/cb?s=${encodeURIComponent(SECRET).toLowerCase()}`,
      JSON.stringify({ s: SECRET }).replace(/\//g, '\\/'),
      `Basic ${Buffer.from(`user:${SECRET}`).toString('base64')} and more`,
    ];
    for (const s of samples) {
      const out = redact(s);
      expect(secretLeaks(out, SECRET), `${s} → ${out}`).toEqual([]);
      expect(findSecret(out, [SECRET]), out).toBeUndefined();
    }
  });

  it('redacts raw bytes byte-exactly around the secret', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(SECRET), Buffer.from([0xfe])]);
    expect(redact.bytes(bytes)).toEqual(Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(REDACTED), Buffer.from([0xfe])]));
  });

  it('leaves ordinary base64 and text alone', () => {
    const b64 = Buffer.from('{"ok":true,"n":12345678}').toString('base64');
    expect(redact({ b64, t: 'agency-alpha books a hotel' })).toEqual({ b64, t: 'agency-alpha books a hotel' });
  });
});

describe('findSecret', () => {
  it('finds a secret in every encoded form, at every base64 alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const raw = `${prefix}${SECRET}!`;
      expect(findSecret(Buffer.from(raw).toString('base64'), [SECRET])?.form).toBe('base64');
      expect(findSecret(Buffer.from(raw).toString('base64url'), [SECRET])?.form).toBe('base64');
    }
    expect(findSecret(`q=${encodeURIComponent(SECRET)}`, [SECRET])?.form).toBe('URL-encoded');
    expect(findSecret(JSON.stringify(SECRET).replace(/\//g, '\\/'), [SECRET])?.form).toBe('JSON-escaped');
    expect(findSecret(`"${SECRET.replace('w', '\\u0077')}"`, [SECRET])?.form).toBe('JSON-escaped');
    expect(findSecret('nothing here', [SECRET])).toBeUndefined();
  });
});
