import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { createMock } from '../../src/mock/create-mock.js';
import { DEFAULT_FIXTURE } from '../../src/mock/fixture/default-fixture.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { loadFixture } from '../../src/mock/fixture/load-fixture.js';
import { validateFixture } from '../../src/mock/fixture/validate-fixture.js';
import { MockClient } from '../helpers/mock-client.js';

describe('fixtures', () => {
  test('the default fixture is section 2 and valid', () => {
    const f = validateFixture(DEFAULT_FIXTURE);
    expect(f.agencies.map((a) => [a.agency_id, a.key_id, a.products.join('+'), a.currency, a.wallet, a.limits.read, a.limits.write])).toEqual([
      ['agency-alpha', 'ak_alpha', 'flights+transfers+activities', 'EUR', 1_000_000, 600, 60],
      ['agency-beta', 'ak_beta', 'flights', 'GBP', 50_000, 120, 20],
      ['agency-gamma', 'ak_gamma', 'flights+transfers+activities+cars', 'USD', 5_000, 600, 60],
      ['agency-delta', 'ak_delta', 'flights+transfers+activities+cars', 'EUR', 1_000_000, 600, 60],
    ]);
    for (const a of f.agencies) expect(Buffer.from(a.webhook_secret.slice(6), 'base64')).toHaveLength(32);
  });

  test('one clear message per wrong field', () => {
    const bad = {
      agencies: [{ ...DEFAULT_FIXTURE.agencies[0], currency: 'eur', products: ['boats'], limits: { read: 0, write: 5 } }, DEFAULT_FIXTURE.agencies[0]],
    };
    let err: unknown;
    try {
      validateFixture(bad, 'fixture f.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HarnessError);
    const h = err as HarnessError;
    expect(h.code).toBe('E_FIXTURE_INVALID');
    expect(h.message).toContain('agencies[0].currency must be a 3-letter ISO 4217 code in upper case, got "eur"');
    expect(h.message).toContain('agencies[0].products must be');
    expect(h.message).toContain('agencies[0].limits.read must be an integer from 1 to 1000000, got 0');
    expect(h.message).toContain('agencies[1].agency_id must be unique');
    expect(h.message).not.toContain('\n');
  });

  test('YAML fixture file is loaded and used', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fx-'));
    const a = { ...DEFAULT_FIXTURE.agencies[1]!, agency_id: 'agency-yaml', key_id: 'ak_yaml', wallet: 777 };
    const yaml = `agencies:\n  - ${Object.entries(a)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n    ')}\n`;
    const file = join(dir, 'f.yaml');
    await writeFile(file, yaml);
    expect((await loadFixture(file)).agencies[0]!.agency_id).toBe('agency-yaml');
    const mock = await createMock({ fixture: file });
    try {
      const c = new MockClient(mock, mock.agencies[0]!);
      expect((await c.get('/v1/wallet/balance')).json.balance).toBe(777);
    } finally {
      await mock.close();
    }
    await writeFile(join(dir, 'broken.json'), '{');
    await expect(loadFixture(join(dir, 'broken.json'))).rejects.toThrow(/not valid JSON/);
  });

  test('generated agencies for load tests', async () => {
    const g = generateAgencies(50);
    expect(new Set(g.map((a) => a.key_id)).size).toBe(50);
    expect(validateFixture({ agencies: g }).agencies).toHaveLength(50);
    const mock = await createMock({ agencies: 50 });
    try {
      expect(mock.agencies).toHaveLength(54);
      const last = new MockClient(mock, mock.agencies[53]!);
      expect((await last.get('/v1/account')).json.agency_id).toBe('agency-load-050');
    } finally {
      await mock.close();
    }
  });

  test('option errors name the option and the value', async () => {
    await expect(createMock({ quoteLifetimeS: 0 })).rejects.toThrow('quoteLifetimeS must be a number ≥ 1, got 0');
    await expect(createMock({ defects: ['nope'] })).rejects.toThrow(/unknown defect "nope"/);
  });

  test('quote lifetime option', async () => {
    const mock = await createMock({ quoteLifetimeS: 30 });
    try {
      const c = new MockClient(mock, mock.agencies[0]!);
      const q = await c.quote();
      expect(Date.parse(q.quote_expires_at) - mock.clock.now()).toBeLessThanOrEqual(30_000);
      await mock.advance(30_000);
      expect((await c.book('flights', q.quote_token, 'lt')).status).toBe(410);
    } finally {
      await mock.close();
    }
  });
});
