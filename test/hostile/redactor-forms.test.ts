import { describe, expect, it } from 'vitest';
import { redactor, REDACTED } from '../../src/profile/redactor.js';
import { findSecret } from '../../src/profile/secret-forms.js';
import { secretFormsIn } from '../helpers/secret-scan.js';
import { hostileForms, SECRETS } from './fixtures/hostile-forms.js';

const redact = redactor(SECRETS);

describe('the redactor against every hostile form of a secret', () => {
  for (const { name, make } of hostileForms()) {
    it(`cuts a secret out of ${name}`, () => {
      for (const secret of SECRETS) {
        const sample = make(secret);
        // The sample does carry the secret, by the scanner's own decoding.
        expect(secretFormsIn(sample, secret), sample).not.toEqual([]);
        const out = redact(sample);
        expect(secretFormsIn(out, secret), `${sample} → ${out}`).toEqual([]);
        expect(findSecret(out, [secret]), out).toBeUndefined();
        // Raw bytes take the same views.
        const bytes = redact.bytes(Buffer.from(sample, 'utf8'));
        expect(secretFormsIn(bytes.toString('utf8'), secret), bytes.toString('utf8')).toEqual([]);
      }
    });
  }

  it('re-encodes a base64 body whose decoded text holds other forms, so it stays a faithful copy', () => {
    for (const secret of SECRETS) {
      const body = `{"a":"${Buffer.from(`x${secret}`).toString('base64')}","b":"${Buffer.from(secret).toString('hex').toUpperCase()}"}`;
      const out = redact({ body, bodyBase64: Buffer.from(body).toString('base64') });
      expect(Buffer.from(out.bodyBase64, 'base64').toString('utf8')).toBe(out.body);
      expect(out.body).toContain(REDACTED);
      expect(secretFormsIn(JSON.stringify(out), secret)).toEqual([]);
    }
  });

  it('masks the user and password of a URL', () => {
    expect(redact('base http://ops:hunter22@api.example:8443/v1 and https://u@h.example/')).toBe(
      `base http://${REDACTED}@api.example:8443/v1 and https://${REDACTED}@h.example/`,
    );
  });

  it('leaves ordinary text, ids and ordinary base64 alone', () => {
    const values = {
      b64: Buffer.from('{"ok":true,"n":12345678}').toString('base64'),
      t: 'agency-alpha books a hotel',
      id: 'qt_0123456789abcdef0123456789abcdef',
      sha: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      url: 'https://api.example/v1/quotes?from=2026-11-25&to=2026-11-26%20x',
    };
    expect(redact(values)).toEqual(values);
  });
});
