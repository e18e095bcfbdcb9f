/*
 * The scenarios and properties as one unit of a real-time schedule: what it
 * leases, how long it takes, and giving agencies back as its cases finish.
 */
import type { ResourceRef } from '../checks/types.js';
import type { AgencyFacts } from './agency-facts.js';
import { PART_OVERHEAD_MS, PROPERTY_REQUESTS, SCENARIO_REQUESTS } from './run-notes.js';
import { PARTS_UNIT_ID, type UnitDemand } from './schedule-unit.js';
import type { LeaseChange } from './schedule-unit.js';
import type { PartPlanInput, SuiteParts } from './suite-part-types.js';

/** What the parts hold of the agency playing `role`: its buckets and its wallet. */
function roleResources(role: number): ResourceRef[] {
  return [`${role}:read`, `${role}:write`, `${role}:wallet`];
}

/** A part of the suite beyond checks. */
type PartName = 'scenarios' | 'properties';

/** The scenarios and properties as one unit of a real-time schedule: the unit, its agencies (role order), and the agency of each case when known. */
interface PartsPlan {
  unit: UnitDemand;
  binding: number[];
  uses: Map<PartName, Array<number | null>> | undefined;
}

/**
 * The scenarios and properties as one unit of a real-time schedule. They
 * run one case after another, each as the agency it picks; when every pick
 * can be told from the facts read at the start, the unit holds only those
 * agencies (as role 0 the properties' agency, else the one most scenarios
 * pick; the properties leave its write bucket full), else every agency. They
 * need no rested bucket: a scenario waits out a refusal as a client would, and
 * the properties measure what each bucket has free. Their time:
 * the waits and rate-limit pacing the parts announce, their round trips and
 * a little local work.
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
  const byUse = [...count.entries()].sort(([a, n], [b, m]) => m - n || a - b).map(([a]) => a);
  // The main agency: the properties' (they take longest and fill its write bucket), else the one most scenarios pick.
  const primary = uses?.get('properties')?.find((a) => a !== null) ?? byUse[0] ?? 0;
  const binding = uses ? [primary, ...byUse.filter((a) => a !== primary).sort((a, b) => a - b)] : [0];
  const writeLimit = limitOf(`${primary}:write`);
  let ms = 0;
  let awayMs = 0;
  for (const name of list) {
    const announced = parts.realTimeMs ? await parts.realTimeMs(name, { ...input, writeLimit }).catch(() => 0) : 0;
    ms += announced + (name === 'scenarios' ? SCENARIO_REQUESTS : PROPERTY_REQUESTS) * input.roundTripMs + PART_OVERHEAD_MS;
    // The first part's waits away come before any wait holding the lease (the scenarios run first).
    if (name === list[0] && parts.awayMs) awayMs = Math.min(announced, await parts.awayMs(name, input).catch(() => 0));
  }
  // What the cases send to the buckets of their agencies, by agency: the busiest agency's counts stand for every leased one.
  const sent = new Map<number, { read: number; write: number }>();
  for (const name of list) {
    const counts = parts.requestsOf ? await parts.requestsOf(name, input).catch(() => []) : [];
    const agencies = uses?.get(name);
    for (const [i, c] of counts.entries()) {
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
  return { unit, binding, uses };
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
