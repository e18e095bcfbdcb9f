import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, defaultRegistry, defineRegistry } from '../../src/checks/index.js';
import type { Check } from '../../src/checks/types.js';
import { createHarness } from '../../src/harness.js';

const check = (id: string, area: Check['area'] = 'auth'): Check => ({
  id,
  title: `check ${id}`,
  area,
  clause: 'SPEC §0',
  needs: [],
  run: async () => ({ verdict: 'PASS', message: 'ok' }),
});

describe('defineRegistry', () => {
  const table: Array<[string, Check[], RegExp | null]> = [
    ['distinct ids', [check('A-01'), check('A-02')], null],
    ['the same id twice', [check('A-01'), check('A-01')], /duplicate check id A-01/],
    ['ids differing only in case', [check('a-01'), check('A-01')], /duplicate check id A-01/],
    ['an empty id', [check('')], /a check has no id/],
  ];
  it.each(table)('%s', (_what, checks, error) => {
    if (error) expect(() => defineRegistry(checks)).toThrow(error);
    else expect(defineRegistry(checks).checks.map((c) => c.id)).toEqual(checks.map((c) => c.id));
  });

  it('refuses a check list with a duplicate id in createHarness, before anything starts', () => {
    expect(() => createHarness({ checks: [check('A-01'), check('A-01')], parts: false })).toThrow(/duplicate check id A-01/);
  });

  it('selects by id and area, case-insensitively, with scenarios and properties as areas', () => {
    const r = defineRegistry([check('AU-01'), check('AU-02'), check('RL-01', 'ratelimit'), check('WH-01', 'webhooks')]);
    expect(r.select().checks).toHaveLength(4);
    expect(r.select()).toMatchObject({ scenarios: true, properties: true });
    const s = r.select('au-02, ratelimit');
    expect(s.checks.map((c) => c.id)).toEqual(['AU-02', 'RL-01']);
    expect(s).toMatchObject({ scenarios: false, properties: false });
    expect(r.select(['webhooks', 'scenarios'])).toMatchObject({ scenarios: true, properties: false });
    expect(r.get('wh-01')?.id).toBe('WH-01');
  });

  it('rejects an unknown id or area with E_USAGE listing the valid ones', () => {
    const r = defineRegistry([check('AU-01'), check('RL-01', 'ratelimit')]);
    try {
      r.select('AU-01,RL-99,quota');
      throw new Error('expected E_USAGE');
    } catch (err) {
      const e = err as { code: string; message: string };
      expect(e.code).toBe('E_USAGE');
      expect(e.message).toContain('"RL-99", "quota"');
      expect(e.message).toContain('areas: auth, ratelimit, scenarios, properties');
      expect(e.message).toContain('checks: AU-01, RL-01');
    }
  });

  it('holds every check of the harness without duplicates, in specification order', () => {
    expect(() => defaultRegistry()).not.toThrow();
    const order = ['auth', 'contract', 'errors', 'ratelimit', 'idempotency', 'quotes', 'wallet', 'webhooks', 'hotel', 'isolation', 'schema'];
    const ranks = ALL_CHECKS.map((c) => order.indexOf(c.area));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ALL_CHECKS.length).toBeGreaterThan(0);
  });
});
