import { describe, expect, it } from 'vitest';
import { decideGrant } from '../../src/certify/certificate/grant.js';
import type { Verdict } from '../../src/results/model.js';

const t = (id: string, required: boolean, verdict: Verdict) => ({ id, required, verdict });

describe('decideGrant', () => {
  it.each([
    ['all required passed', [t('A', true, 'PASS'), t('B', true, 'PASS')], true, []],
    ['an optional test not run is named, not refusing', [t('A', true, 'PASS'), t('B', false, 'SKIP')], true, []],
    ['a required test not run refuses', [t('A', true, 'PASS'), t('B', true, 'SKIP')], false, ['B']],
    ['an optional test that fails refuses', [t('A', true, 'PASS'), t('B', false, 'FAIL')], false, ['B']],
    ['an error refuses', [t('A', true, 'ERROR'), t('B', false, 'PASS')], false, ['A']],
    ['a required warning is not a pass', [t('A', true, 'WARN')], false, ['A']],
    ['an empty plan proves nothing', [], false, []],
  ] as const)('%s', (_name, tests, granted, refusedBy) => {
    const g = decideGrant(tests);
    expect(g.granted).toBe(granted);
    expect(g.refusedBy).toEqual(refusedBy);
    expect(g.skipped).toEqual(tests.filter((x) => x.verdict === 'SKIP').map((x) => x.id));
  });
});
