import { describe, expect, it } from 'vitest';
import { propertiesRealTimeMs } from '../../properties/index.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { parseScenario, scenarioWaitsMs } from '../../src/scenario/index.js';

const profile = resolveProfile({ base_url: 'http://127.0.0.1:1/v1', hotel_base_url: null, clock: { control: 'none' }, limits: { window_s: 2 }, quotes: { lifetime_s: 5 }, agencies: [{ id: 'a', key_id: 'k', secret: 's' }] });

describe('real-time plan of the suite parts', () => {
  it('adds up the wait steps of scenarios, profile values and the learned quote lifetime resolved, repeats counted', () => {
    const s = parseScenario(
      [
        'name: waits',
        'description: d',
        'clause: c',
        'steps:',
        '  - wait: {s: "{{profile.limits.window_s}}"}',
        '  - wait: {s: "{{profile.quotes.lifetime_s}}"}',
        '  - wait: {ms: 250}',
        '  - repeat:',
        '      count: 3',
        '      steps:',
        '        - wait: {ms: 100}',
      ].join('\n'),
      'waits.yaml',
      profile,
    );
    expect(scenarioWaitsMs([s], profile)).toBe(2000 + 5000 + 250 + 300);
    // the lifetime the service answered, not the profile's
    expect(scenarioWaitsMs([s], profile, 7)).toBe(2000 + 7000 + 250 + 300);
  });

  it('paces a property that books by the write limit, up to its time limit; one that needs clock control costs nothing', () => {
    const paced = propertiesRealTimeMs({ only: ['idempotency-model'], windowMs: 2000, writeLimit: 35, requestMs: 1 });
    expect(paced).toBeGreaterThan(2000);
    expect(paced).toBeLessThan(120_000);
    expect(propertiesRealTimeMs({ only: ['idempotency-model'], windowMs: 60_000, writeLimit: 60, requestMs: 1 })).toBe(120_000);
    expect(propertiesRealTimeMs({ only: ['quote-lock'], windowMs: 60_000, writeLimit: 60, requestMs: 1 })).toBe(0);
  });
});
