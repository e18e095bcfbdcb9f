import { describe, expect, it } from 'vitest';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import { agencyReleaser, planParts } from '../../src/runner/parts-unit.js';
import type { SuiteParts } from '../../src/runner/suite-part-types.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';

const profile = resolveProfile({
  base_url: 'http://127.0.0.1:1/v1',
  hotel_base_url: null,
  clock: { control: 'none' },
  agencies: [{ id: 'a', key_id: 'k', secret: 's' }],
});
const facts: AgencyFacts[] = ['alpha', 'beta', 'gamma'].map((id, index) => ({ index, id, products: { open: ['flights'], closed: [] }, balance: 1000 }));
const input = { profile, roundTripMs: 1 };
const limitOf = (): number => 60;

function parts(uses: { scenarios?: Array<number | null> | undefined; properties?: Array<number | null> | undefined }): SuiteParts {
  return {
    scenarios: () => Promise.resolve([]),
    properties: () => Promise.resolve([]),
    realTimeMs: (part) => Promise.resolve(part === 'scenarios' ? 60_000 : 120_000),
    scenarioWaits: () => Promise.resolve({ beside: 0, away: 50_000 }),
    agenciesOf: (part) => Promise.resolve(uses[part]),
  };
}

describe('the scenarios and properties as a unit of a real-time schedule', () => {
  it('leases only the agencies its cases pick, the most used one as its main agency, whose write bucket the properties top up, with no rest before', async () => {
    const plan = await planParts(parts({ scenarios: [2, 0, null, 2, 2], properties: [1, null] }), ['scenarios', 'properties'], input, facts, limitOf);
    // the properties' agency is the main one, though the scenarios pick gamma more often
    expect(plan.binding).toEqual([1, 0, 2]);
    expect(plan.unit).toMatchObject({
      pinned: true,
      touches: ['0:read', '0:write', '0:wallet', '1:read', '1:write', '1:wallet', '2:read', '2:write', '2:wallet'],
      tops: ['0:write'],
      waitTouches: ['0:read', '0:write', '0:wallet'],
    });
    expect(plan.unit.everyAgency).toBeUndefined();
    expect(plan.unit.fills).toBeUndefined();
    // the announced waits, plus round trips and local work; away through the scenarios' waits, which come first
    expect(plan.unit.waitMs).toBeGreaterThan(180_000);
    expect(plan.unit.awayMs).toBe(50_000);
  });

  it('holds every agency when a pick cannot be told, and fills nothing without the properties', async () => {
    const unknown = await planParts(parts({ scenarios: undefined, properties: [0] }), ['scenarios', 'properties'], input, facts, limitOf);
    expect(unknown.binding).toEqual([0]);
    expect(unknown.uses).toBeUndefined();
    expect(unknown.unit).toMatchObject({ everyAgency: true, touches: ['0:read', '0:write', '0:wallet'] });
    const scenariosOnly = await planParts(parts({ scenarios: [2, 1, 1] }), ['scenarios'], input, facts, limitOf);
    expect(scenariosOnly.binding).toEqual([1, 2]);
    expect([scenariosOnly.unit.fills, scenariosOnly.unit.tops]).toEqual([undefined, undefined]);
    const one = await planParts(parts({ scenarios: [1, null] }), ['scenarios'], input, facts, limitOf);
    expect(one.binding).toEqual([1]);
    expect(one.unit.waitTouches).toBeUndefined();
  });

  it('gives an agency back once no case left is planned on it, and never the ones still needed', () => {
    const narrowed: string[][] = [];
    const lease = { narrow: (keep: readonly string[]) => void narrowed.push([...keep]), widen: () => Promise.resolve() };
    const uses = new Map<'scenarios' | 'properties', Array<number | null>>([
      ['scenarios', [0, 2, null, 0]],
      ['properties', [0]],
    ]);
    const r = agencyReleaser([0, 2], uses, lease);
    expect([...r.usable]).toEqual([0, 2]);
    r.caseDone('scenarios');
    expect(narrowed).toEqual([]);
    r.caseDone('scenarios');
    expect(narrowed).toEqual([['0:read', '0:write', '0:wallet']]);
    expect([...r.usable]).toEqual([0]);
    r.caseDone('scenarios');
    r.partDone('scenarios');
    r.caseDone('properties');
    // nothing left needs an agency: what remains is finished with the lease, not narrowed to nothing
    expect(narrowed).toHaveLength(1);
  });

  it('runs a scenario that makes no wait, on an agency no property uses, as a unit of its own there, with the requests it sends', async () => {
    const cases = (part: 'scenarios' | 'properties') =>
      Promise.resolve(
        part === 'scenarios'
          ? [
              { name: 'a', read: 5, write: 2, waits: false },
              { name: 'cars', read: 4, write: 2, waits: false },
              { name: 'slow', read: 3, write: 1, waits: true },
              { name: 'b', read: 9, write: 30, waits: false },
            ]
          : [{ name: 'quote-lock', read: 29, write: 14, waits: true }],
      );
    const plan = await planParts(
      { ...parts({ scenarios: [0, 2, 1, 0], properties: [0] }), casesOf: cases },
      ['scenarios', 'properties'],
      input,
      facts,
      limitOf,
    );
    // cars on gamma runs apart; slow waits, so it stays with the parts (which then hold beta too)
    expect(plan.aside).toEqual([
      {
        name: 'cars',
        agency: 2,
        unit: {
          id: 'scenario:cars',
          needs: [],
          pinned: true,
          touches: ['0:read', '0:write', '0:wallet'],
          requests: { read: 4, write: 2 },
          waitMs: expect.any(Number),
        },
      },
    ]);
    expect(plan.binding).toEqual([0, 1]);
    expect(plan.uses?.get('scenarios')).toEqual([0, 1, 0]);
    // the parts need room on their main agency for its scenarios' requests and quote-lock's
    expect(plan.unit.requests).toEqual({ read: 5 + 9 + 29, write: 2 + 30 + 14 });
  });
});
