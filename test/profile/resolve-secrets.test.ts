import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/log/redacted.js';
import { redactor } from '../../src/profile/redactor.js';
import { resolveAgencies, secretsOf } from '../../src/profile/resolve-secrets.js';
import type { AgencyDef } from '../../src/profile/types.js';

const alpha: AgencyDef = {
  id: 'agency-alpha',
  key_id: 'ak_alpha',
  secret_env: 'T_ALPHA_SECRET',
  webhook_secret_env: 'T_ALPHA_WH',
  hotel_api_key_env: 'T_ALPHA_HOTEL',
};
const beta: AgencyDef = { id: 'agency-beta', key_id: 'ak_beta', secret_env: 'T_BETA_SECRET' };

describe('resolveAgencies', () => {
  it('reads secrets from the environment and literals', () => {
    const agencies = resolveAgencies(
      { agencies: [alpha, { id: 'lit', key_id: 'k', secret: 'literal-secret', limits: { read: 5, write: 2 } }] },
      { T_ALPHA_SECRET: 'alpha-secret', T_ALPHA_WH: 'whsec_x' },
      { agencies: 2 },
    );
    expect(agencies).toEqual([
      { id: 'agency-alpha', keyId: 'ak_alpha', secret: 'alpha-secret', webhookSecret: 'whsec_x' },
      { id: 'lit', keyId: 'k', secret: 'literal-secret', limits: { read: 5, write: 2 } },
    ]);
  });

  it('names the missing variable of a needed secret, never a value', () => {
    expect(() => resolveAgencies({ agencies: [alpha] }, {})).toThrow(
      /E?secret missing: set the environment variable T_ALPHA_SECRET \(agencies\[0\]\.secret_env, agency agency-alpha\)/,
    );
    try {
      resolveAgencies({ agencies: [alpha, beta] }, { T_ALPHA_SECRET: 'alpha-secret' }, { agencies: 2, webhookSecret: true, hotel: true });
    } catch (err) {
      const e = err as { code: string; message: string };
      expect(e.code).toBe('E_SECRET_MISSING');
      expect(e.message).toContain('T_BETA_SECRET');
      expect(e.message).toContain('T_ALPHA_WH');
      expect(e.message).toContain('T_ALPHA_HOTEL');
      expect(e.message).not.toContain('alpha-secret');
      return;
    }
    throw new Error('expected E_SECRET_MISSING');
  });

  it('leaves out agencies and secrets nobody needs', () => {
    const agencies = resolveAgencies({ agencies: [alpha, beta] }, { T_ALPHA_SECRET: 'alpha-secret' });
    expect(agencies).toEqual([{ id: 'agency-alpha', keyId: 'ak_alpha', secret: 'alpha-secret' }]);
  });
});

describe('redactor', () => {
  it('replaces every secret in strings, keys and nested values, leaving other values alone', () => {
    const agencies = [{ id: 'a', keyId: 'k', secret: 'sekrit-123', hotelApiKey: 'hk_abcdef' }];
    const redact = redactor(secretsOf(agencies));
    const input = { headers: { 'x-api-key': 'hk_abcdef' }, body: 'key=sekrit-123&again=sekrit-123', list: [1, 'hk_abcdef!', null], n: 5, 'sekrit-123': true };
    expect(redact(input)).toEqual({
      headers: { 'x-api-key': REDACTED },
      body: `key=${REDACTED}&again=${REDACTED}`,
      list: [1, `${REDACTED}!`, null],
      n: 5,
      [REDACTED]: true,
    });
    expect(input.body).toContain('sekrit-123');
    expect(redact('nothing here')).toBe('nothing here');
  });

  it('ignores too-short secrets that would shred ordinary text', () => {
    expect(redactor(['a'])('banana')).toBe('banana');
  });
});
