import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, AREA_CHECKS, AREA_ORDER } from '../../src/checks/index.js';
import { AREAS } from '../../src/results/model.js';

describe('the list of areas', () => {
  it('holds each area once, every check under the area it declares', () => {
    expect(new Set(AREA_ORDER).size).toBe(AREA_ORDER.length);
    for (const [area, checks] of AREA_CHECKS) {
      expect(checks.length, `${area} has checks`).toBeGreaterThan(0);
      for (const c of checks) expect(c.area, c.id).toBe(area);
    }
  });

  it('lists the areas of checks in the one order of runs and reports', () => {
    expect(AREA_ORDER).toEqual(AREAS.filter((a) => (AREA_ORDER as readonly string[]).includes(a)));
    expect(AREA_ORDER).toContain('isolation');
  });

  it('gives every check in specification order', () => {
    expect(ALL_CHECKS.length).toBe(AREA_CHECKS.reduce((n, [, checks]) => n + checks.length, 0));
    const ranks = ALL_CHECKS.map((c) => AREA_ORDER.indexOf(c.area));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});
