import { describe, expect, it } from 'vitest';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import {
  chooseAgency,
  parseScenario,
  runOrder,
  scenarioRequests,
  scenarioWaitPlan,
  scenarioWaits,
  scenarioWaitsMs,
  type AgencyView,
} from '../../src/scenario/index.js';

const profile = resolveProfile({
  base_url: 'http://127.0.0.1:1/v1',
  hotel_base_url: null,
  clock: { control: 'none' },
  limits: { window_s: 2 },
  quotes: { lifetime_s: 5 },
  agencies: [{ id: 'a', key_id: 'k', secret: 's' }],
});

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

  it('spends the first long wait made alone beside the properties, and the other waits made alone of a second or more away: no rest, none within a concurrent repeat', () => {
    const s = parseScenario(
      [
        'name: away',
        'description: d',
        'clause: c',
        'steps:',
        '  - wait: {s: "{{profile.quotes.lifetime_s}}"}',
        '  - rest: write',
        '  - wait: {ms: 250}',
        '  - wait: {s: 6}',
        '  - repeat:',
        '      count: 2',
        '      steps:',
        '        - wait: {ms: 1000}',
        '  - repeat:',
        '      count: 3',
        '      concurrent: true',
        '      steps:',
        '        - wait: {ms: 4000}',
      ].join('\n'),
      'away.yaml',
      profile,
    );
    // long: at least the quote lifetime (5 s, or 7 s learned) and the window (2 s)
    expect(scenarioWaitPlan([s], profile, undefined, true)).toEqual({ beside: 5000, away: 6000 + 2000 });
    expect(scenarioWaitPlan([s], profile, 7, true)).toEqual({ beside: 7000, away: 6000 + 2000 });
    // a 6 s wait is not long beside a 7 s lifetime, but the first long one is taken
    expect(scenarioWaitPlan([s], profile, 5.5, true)).toEqual({ beside: 5500, away: 6000 + 2000 });
    // without properties to run beside it, every wait of a second or more is spent away
    expect(scenarioWaitPlan([s], profile, undefined, false)).toEqual({ beside: 0, away: 5000 + 6000 + 2000 });
    // every wait and rest counts in the time the scenarios take
    expect(scenarioWaitsMs([s], profile)).toBe(5000 + 2000 + 250 + 6000 + 2000 + 4000);
  });

  it('counts the requests scenarios send to their buckets: a step its own, a balance change two wallet reads, repeats as many times', () => {
    const s = parseScenario(
      [
        'name: r',
        'description: d',
        'clause: c',
        'product: flights',
        'steps:',
        '  - search:',
        '    save: { quote: cheapest.quote_token }',
        '  - book: { quote: "{{quote}}" }',
        '    expect: { balance_delta: 0 }',
        '  - repeat:',
        '      count: 3',
        '      steps:',
        '        - book: { quote: "{{quote}}" }',
        '        - statement:',
        '  - wait: {ms: 10}',
      ].join('\n'),
      'r.yaml',
      profile,
    );
    expect(scenarioRequests([s])).toEqual({ read: 1 + 2 + 3, write: 1 + 3 });
    expect(scenarioWaits(s)).toBe(true);
  });

  const scenario = (name: string, first: string, extra = ''): ReturnType<typeof parseScenario> =>
    parseScenario(
      [`name: ${name}`, 'description: d', `agency: any-with-product`, 'product: flights', 'steps:', `  - ${first}`, extra].filter(Boolean).join('\n'),
      `${name}.yaml`,
      profile,
    );

  it('runs the scenarios that wait after the others, file order kept within each group', () => {
    const list = [
      scenario('a', 'search:'),
      scenario('b', 'rest: write'),
      scenario('c', 'search:'),
      scenario('d', 'search:', '  - wait: { s: 1 }'),
      scenario('e', 'search:'),
    ];
    expect(runOrder(list).map((s) => s.name)).toEqual(['a', 'c', 'e', 'b', 'd']);
  });

  it('counts every rest as a window: the buckets rest a window after the last request they got', () => {
    const opens = scenario('opens', 'rest: write', '  - rest: read');
    const later = scenario('later', 'search:', '  - rest: write');
    // 2 s window
    expect(scenarioWaitsMs([later, opens], profile)).toBe(3 * 2000);
    expect(scenarioWaitsMs([later], profile)).toBe(2000);
  });

  it('predicts the agency a scenario picks as the run would: the largest balance with the product open, or the one named', () => {
    const agencies: AgencyView[] = [
      { index: 0, id: 'alpha', open: ['transfers'], balance: 1_000_000 },
      { index: 1, id: 'beta', open: ['flights'], balance: 500 },
      { index: 2, id: 'gamma', open: ['flights', 'cars'], balance: 900 },
    ];
    const s = scenario('x', 'search:');
    expect(chooseAgency(s, agencies, agencies)).toEqual({ index: 2 });
    expect(chooseAgency({ agency: 'beta', product: 'flights' }, agencies, agencies)).toEqual({ index: 1 });
    expect(chooseAgency({ agency: 0, product: 'flights' }, agencies, agencies)).toEqual({ skip: 'flights is closed for alpha' });
    expect(chooseAgency({ agency: 'any-with-product', product: 'activities' }, agencies, agencies)).toHaveProperty('skip');
    // only the agencies left to the scenarios are chosen from
    expect(chooseAgency(s, agencies.slice(0, 2), agencies)).toEqual({ index: 1 });
    expect(chooseAgency({ agency: 'gamma', product: 'flights' }, agencies.slice(0, 2), agencies)).toEqual({
      skip: 'agency gamma is not one this run leaves to the scenarios',
    });
    // an agency whose products were not read could be the one: unknown
    expect(chooseAgency(s, [...agencies, { index: 3, id: 'delta', open: undefined, balance: undefined }], agencies)).toBe('unknown');
  });
});
