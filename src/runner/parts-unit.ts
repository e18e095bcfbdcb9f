/*
 * The scenarios and properties as one unit of a real-time schedule (and the
 * scenarios run apart as units of their own): what it leases, how long it
 * takes, and giving agencies back as its cases finish.
 */
import type { ResourceRef } from '../checks/types.js';
import type { AgencyFacts } from './agency-facts.js';
import { PART_OVERHEAD_MS, PROPERTY_REQUESTS, SCENARIO_REQUESTS } from './run-notes.js';
import { PARTS_UNIT_ID, type UnitDemand } from './schedule-unit.js';
import type { LeaseChange } from './schedule-unit.js';
import type { PartCase, PartPlanInput, SuiteParts } from './suite-part-types.js';

/** What the parts hold of the agency playing `role`: its buckets and its wallet. */
function roleResources(role: number): ResourceRef[] {
  return [`${role}:read`, `${role}:write`, `${role}:wallet`];
}

/** A part of the suite beyond checks. */
type PartName = 'scenarios' | 'properties';

/** A scenario run as a unit of its own, on one agency. */
interface AsideScenario {
  name: string;
  agency: number;
  unit: UnitDemand;
}

/** The scenarios and properties as one unit of a real-time schedule: the unit, its agencies (role order), and the agency of each case when known; and the scenarios run aside, each as a unit. */
interface PartsPlan {
  unit: UnitDemand;
  binding: number[];
  uses: Map<PartName, Array<number | null>> | undefined;
  aside: AsideScenario[];
}

/**
 * The scenarios and properties as one unit of a real-time schedule. They
 * run one case after another, each as the agency it picks; when every pick
 * can be told from the facts read at the start, the unit holds only those
 * agencies (as role 0 the properties' agency, else the one most scenarios
 * pick; the properties leave its write bucket full), else every agency. They
 * need no rested bucket: a scenario waits out a refusal as a client would, and
 * the properties measure what each bucket has free; they need room there for
 * the requests their cases send first. Their time: the waits and rate-limit
 * pacing the parts announce (the properties that leave the buckets usable
 * beside the scenarios' first long wait), their round trips and a little
 * local work. A scenario that makes no wait, on an agency no property uses,
 * is planned apart (`aside`): a unit of its own on that agency.
 */
export async function planParts(
  parts: SuiteParts,
  list: readonly PartName[],
  input: Omit<PartPlanInput, 'writeLimit'>,
  facts: readonly AgencyFacts[],
  limitOf: (bucket: string) => number | undefined,
): Promise<PartsPlan> {
  const views = facts.map((f) => ({
    index: f.index,
    id: f.id,
    open: 'error' in f.products ? undefined : f.products.open,
    balance: f.balance,
    writeLimit: f.limits?.write,
  }));
  let uses: Map<PartName, Array<number | null>> | undefined = new Map();
  for (const name of list) {
    const got = parts.agenciesOf ? await parts.agenciesOf(name, { ...input, writeLimit: undefined }, views).catch(() => undefined) : undefined;
    if (!got) {
      uses = undefined;
      break;
    }
    uses.set(name, got);
  }
  const count = new Map<number, number>();
  for (const a of [...(uses?.values() ?? [])].flat()) if (a !== null) count.set(a, (count.get(a) ?? 0) + 1);
  // The main agency: the properties' (they take longest and fill its write bucket), else the one most scenarios pick.
  const primary = uses?.get('properties')?.find((a) => a !== null) ?? [...count.entries()].sort(([a, n], [b, m]) => m - n || a - b)[0]?.[0] ?? 0;
  const cases = new Map<PartName, PartCase[]>();
  for (const name of list)
    cases.set(name, parts.casesOf ? await parts.casesOf(name, { ...input, writeLimit: limitOf(`${primary}:write`) }).catch(() => []) : []);
  // A scenario that makes no wait, planned on an agency no property uses, runs as a unit of its own on that agency alone.
  const aside: AsideScenario[] = [];
  const picks = uses?.get('scenarios');
  if (uses && picks && list.includes('scenarios')) {
    const byProperties = new Set(uses.get('properties') ?? []);
    const listed = cases.get('scenarios') ?? [];
    const kept: Array<number | null> = [];
    const keptCases: PartCase[] = [];
    for (const [i, a] of picks.entries()) {
      const c = listed[i];
      if (c && a !== null && a !== primary && !byProperties.has(a) && !c.waits)
        aside.push({
          name: c.name,
          agency: a,
          unit: {
            id: `scenario:${c.name}`,
            needs: [],
            pinned: true,
            touches: roleResources(0),
            requests: { read: c.read, write: c.write },
            waitMs: SCENARIO_REQUESTS * input.roundTripMs,
          },
        });
      else {
        kept.push(a);
        if (c) keptCases.push(c);
      }
    }
    uses.set('scenarios', kept);
    cases.set('scenarios', keptCases);
  }
  const used = new Set([...(uses?.values() ?? [])].flat().filter((a): a is number => a !== null));
  const binding = uses ? [primary, ...[...used].filter((a) => a !== primary).sort((a, b) => a - b)] : [0];
  const writeLimit = limitOf(`${primary}:write`);
  const withLimit = { ...input, writeLimit };
  const announced = async (name: PartName, besideWait?: boolean): Promise<number> =>
    parts.realTimeMs ? await parts.realTimeMs(name, besideWait === undefined ? withLimit : { ...withLimit, besideWait }).catch(() => 0) : 0;
  const local = (name: PartName): number => (name === 'scenarios' ? SCENARIO_REQUESTS : PROPERTY_REQUESTS) * input.roundTripMs + PART_OVERHEAD_MS;
  // The scenarios' waits: the first long one has the properties beside it, the others of a second or more are spent away.
  const waits =
    list[0] === 'scenarios' && parts.scenarioWaits ? await parts.scenarioWaits(withLimit, list.includes('properties')).catch(() => undefined) : undefined;
  let ms = 0;
  for (const name of list) {
    // Beside the scenarios' long wait: the properties that leave the buckets usable (the wait ends once they have), then the others.
    const beside = name === 'properties' && waits !== undefined && waits.beside > 0;
    ms += beside
      ? Math.max(0, (await announced(name, true)) + local(name) - waits.beside) + (await announced(name, false))
      : (await announced(name)) + local(name);
  }
  const awayMs = waits?.away ?? 0;
  // What the cases send to the buckets of their agencies, by agency: the busiest agency's counts stand for every leased one.
  const sent = new Map<number, { read: number; write: number }>();
  for (const name of list) {
    const agencies = uses?.get(name);
    for (const [i, c] of (cases.get(name) ?? []).entries()) {
      const a = agencies ? agencies[i] : primary;
      if (a === null || a === undefined) continue;
      const n = sent.get(a) ?? { read: 0, write: 0 };
      sent.set(a, { read: n.read + c.read, write: n.write + c.write });
    }
  }
  const busiest = [...sent.values()].reduce((m, c) => ({ read: Math.max(m.read, c.read), write: Math.max(m.write, c.write) }), { read: 0, write: 0 });
  const unit: UnitDemand = {
    id: PARTS_UNIT_ID,
    needs: [],
    ...(uses ? { pinned: true, touches: binding.flatMap((_, role) => roleResources(role)) } : { everyAgency: true, touches: roleResources(0) }),
    // Once the cases on the other agencies are done, it holds only its main agency through its waits.
    ...(binding.length > 1 ? { waitTouches: roleResources(0) } : {}),
    // The properties measure the buckets they use and are paced by the write limit: they leave the main agency's write bucket full, to cool before its next user.
    ...(list.includes('properties') ? { tops: ['0:write'] } : {}),
    // The scenarios' requests need room in the buckets they start on, or they wait out refusals; the properties measure what is free.
    requests: busiest,
    waitMs: ms,
    // Through the scenarios' waits it holds nothing: other checks use its agencies meanwhile.
    ...(awayMs > 0 ? { awayMs } : {}),
  };
  return { unit, binding, uses, aside };
}

/**
 * Follows the parts' cases as they finish and gives back (`lease.narrow`)
 * each agency of `binding` that no case left is planned on; `usable` is the
 * set of agencies the parts may still send to.
 */
export function agencyReleaser(
  binding: readonly number[],
  uses: ReadonlyMap<PartName, ReadonlyArray<number | null>>,
  lease: LeaseChange,
): { usable: Set<number>; caseDone(part: PartName): void; partDone(part: PartName): void } {
  const usable = new Set(binding);
  const done = new Map<PartName, number>();
  const release = (): void => {
    const needed = new Set<number>();
    for (const [part, list] of uses) for (const a of list.slice(done.get(part) ?? 0)) if (a !== null) needed.add(a);
    // Cases that may read any leased agency (null) keep what is left.
    if (needed.size === 0) return;
    const given = [...usable].filter((a) => !needed.has(a));
    if (given.length === 0) return;
    for (const a of given) usable.delete(a);
    lease.narrow(binding.flatMap((a, role) => (usable.has(a) ? roleResources(role) : [])));
  };
  return {
    usable,
    caseDone(part) {
      done.set(part, (done.get(part) ?? 0) + 1);
      release();
    },
    partDone(part) {
      done.set(part, uses.get(part)?.length ?? 0);
      release();
    },
  };
}
