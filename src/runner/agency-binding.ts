import type { RunScope } from '../checks/check-context.js';
import type { AgencyResource, ResourceRef } from '../checks/types.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { AgencyFacts } from './agency-facts.js';
import type { Lease } from './lease-planner.js';
import type { UnitDemand } from './schedule-unit.js';

/** Requests a check is assumed to send when it does not say. */
const DEFAULT_REQUESTS = 10;

/** Requests `check` sends to one bucket at most (its declared count, or the default). */
function requestCount(check: Pick<UnitDemand, 'requests'>): number {
  const r = check.requests ?? DEFAULT_REQUESTS;
  return typeof r === 'number' ? r : Math.max(r.read, r.write);
}

/** Requests `check` sends in all, roughly (to time it). */
export function totalRequests(check: Pick<UnitDemand, 'requests'>): number {
  const r = check.requests ?? DEFAULT_REQUESTS;
  return typeof r === 'number' ? r : r.read + r.write;
}

/** A booking check runs only on an agency whose wallet pays this many of the dearest offer seen. */
const WALLET_COVERS = 20;

type Planned = Pick<UnitDemand, 'id' | 'needs' | 'fills' | 'tops' | 'touches' | 'pinned' | 'everyAgency' | 'requests' | 'charges'>;

/** How many agencies a check plays with: 2 when it needs a second agency. */
export function rolesOf(check: Pick<UnitDemand, 'needs'>): number {
  return check.needs.includes('second-agency') ? 2 : 1;
}

/** What a check declares it touches, or the safe default: read, write and wallet of each of its agencies. */
export function touchesOf(check: Pick<UnitDemand, 'needs' | 'touches' | 'fills'>): ResourceRef[] {
  const refs = remembered(touched, check, '', () => {
    if (check.touches) return [...new Set([...check.touches, ...(check.fills ?? [])])];
    const kinds: AgencyResource[] = ['read', 'write', 'wallet'];
    const out: ResourceRef[] = [];
    for (let role = 0; role < rolesOf(check); role++) for (const k of kinds) out.push(`${role}:${k}`);
    return out;
  });
  return [...refs];
}

/*
 * A check's declarations never change, and the planner's search asks for the same resources many thousand times (each
 * candidate order is played through): they are worked out once per check, binding and refs. Six plans of the whole suite
 * took 3.4 s instead of 10.3 s.
 */
const touched = new WeakMap<object, Map<string, ResourceRef[]>>();
const bound = new WeakMap<object, Map<string, string[]>>();
const leases = new WeakMap<object, Map<string, Lease>>();

/** What `make` returns for `check` and `key`, made on the first ask and remembered in `cache`. */
function remembered<T>(cache: WeakMap<object, Map<string, T>>, check: object, key: string, make: () => T): T {
  let byKey = cache.get(check);
  if (!byKey) cache.set(check, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined) byKey.set(key, (value = make()));
  return value;
}

function split(ref: string): { role: number; kind: string } {
  const i = ref.indexOf(':');
  return { role: Number(ref.slice(0, i)), kind: ref.slice(i + 1) };
}

/** The concrete resources (`<agency index>:<kind>`) that `refs` name when role i of `check` is played by agency `binding[i]` (every agency for an `everyAgency` check's role 0). */
export function resourcesOf(check: Pick<UnitDemand, 'everyAgency'>, refs: readonly string[], binding: readonly number[], agencyCount: number): string[] {
  const key = `${agencyCount}/${binding.join(',')}/${refs.join(',')}`;
  return [...remembered(bound, check, key, () => resolveRefs(check, refs, binding, agencyCount))];
}

function resolveRefs(check: Pick<UnitDemand, 'everyAgency'>, refs: readonly string[], binding: readonly number[], agencyCount: number): string[] {
  const map = (ref: string): string[] => {
    const { role, kind } = split(ref);
    if (check.everyAgency && role === 0) return Array.from({ length: agencyCount }, (_, a) => `${a}:${kind}`);
    // As `boundScope` shows them: the bound agencies, then the others in the profile's order.
    return [`${order[role] ?? role}:${kind}`];
  };
  const order = roleOrder(binding, agencyCount);
  return [...new Set(refs.flatMap(map))];
}

/** The lease of `check` when its role i is played by agency `binding[i]` (every agency for an `everyAgency` check). */
export function leaseFor(check: Planned, binding: readonly number[], agencyCount: number): Lease {
  const lease = remembered(leases, check, `${agencyCount}/${binding.join(',')}`, () => newLease(check, binding, agencyCount));
  // A lease is never changed, only replaced (LeasePlanner.release): its lists are shared, the lease itself is the caller's own.
  return { ...lease };
}

function newLease(check: Planned, binding: readonly number[], agencyCount: number): Lease {
  const resources = resourcesOf(check, touchesOf(check), binding, agencyCount);
  const lease: Lease = { holder: check.id, resources, fills: resourcesOf(check, check.fills ?? [], binding, agencyCount), requests: requestCount(check) };
  if (check.tops) lease.tops = resourcesOf(check, check.tops, binding, agencyCount);
  const split = check.requests;
  if (typeof split === 'object')
    lease.perBucket = Object.fromEntries(
      resources.filter((r) => r.endsWith(':read') || r.endsWith(':write')).map((r) => [r, r.endsWith(':read') ? split.read : split.write]),
    );
  return lease;
}

function searchable(f: AgencyFacts, profile: Readonly<Profile>): string[] {
  return 'error' in f.products ? [] : f.products.open.filter((p) => profile.search_criteria[p] !== undefined);
}

/** True when agency `f` can play role 0 of `check` as well as the first agency would. */
function fits(check: Planned, f: AgencyFacts, agency: ResolvedAgency, first: ResolvedAgency, profile: Readonly<Profile>): boolean {
  if (f.index === 0) return true;
  for (const need of check.needs) {
    if (need === 'open-product' && searchable(f, profile).length === 0) return false;
    if (need === 'closed-product' && ('error' in f.products || f.products.closed.length === 0)) return false;
    if (need === 'hotel' && (!agency.hotelApiKey || Boolean(agency.hotelWebhookSecret) !== Boolean(first.hotelWebhookSecret))) return false;
    if (need === 'receiver' && Boolean(agency.webhookSecret) !== Boolean(first.webhookSecret)) return false;
  }
  if (touchesOf(check).includes('0:wallet')) {
    if (f.balance === undefined) return false;
    if (f.offerPrice !== undefined && f.balance < (check.charges ?? WALLET_COVERS) * f.offerPrice) return false;
  }
  return true;
}

/**
 * The agency bindings `check` may run with, best first: role 0 on any agency
 * that fits its needs (only the first agency when pinned), role 1 on any
 * other agency, the profile's order preferred (the smallest wallet first for a
 * check that charges nothing).
 */
export function bindingsOf(check: Planned, facts: readonly AgencyFacts[], agencies: readonly ResolvedAgency[], profile: Readonly<Profile>): number[][] {
  const n = agencies.length;
  if (n === 0) return [[0]];
  if (check.pinned || check.everyAgency) return [rolesOf(check) === 2 ? [0, 1] : [0]];
  const fitting = facts.filter((f) => f.index < n && fits(check, f, agencies[f.index]!, agencies[0]!, profile));
  // A check whose bookings are all refused leaves the best-funded wallets to the checks that pay: the smallest first.
  if (check.charges === 0 && touchesOf(check).includes('0:wallet')) fitting.sort((a, b) => (a.balance ?? Infinity) - (b.balance ?? Infinity));
  let firsts = fitting.map((f) => f.index);
  if (!firsts.includes(0)) firsts.unshift(0);
  // A check that probes every product closed to its agency (CT-02) sends its requests once per product, and declares them for the fewest:
  // it runs only where there are that few (on agency-beta, with three, it sent twice its declared writes and kept another check off the bucket).
  if (check.needs.includes('closed-product')) {
    const closed = (a: number): number => {
      const products = facts.find((f) => f.index === a)?.products;
      return products && !('error' in products) ? products.closed.length : 0;
    };
    const fewest = Math.min(...firsts.map(closed).filter((n) => n > 0));
    if (Number.isFinite(fewest)) firsts = firsts.filter((a) => closed(a) === fewest);
  }
  if (rolesOf(check) === 1) return firsts.map((a) => [a]);
  const out: number[][] = [];
  for (const a of firsts) for (let b = 0; b < n; b++) if (b !== a) out.push([a, b]);
  return out.length > 0 ? out : [[0, 1]];
}

/** Every agency index, the bound ones first in role order, then the others in the profile's order. */
function roleOrder(binding: readonly number[], agencyCount: number): number[] {
  const rest = Array.from({ length: agencyCount }, (_, i) => i).filter((i) => !binding.includes(i));
  return [...binding, ...rest];
}

/**
 * The run scope as a check bound to `binding` sees it: `api(i)`, `hotel(i)`,
 * `agencies[i]` and the profile's `agencies[i]` all name the agency playing role i.
 */
export function boundScope<S extends Omit<RunScope, 'log'>>(scope: S, binding: readonly number[]): S {
  const order = roleOrder(binding, scope.agencies.length);
  if (order.every((a, i) => a === i)) return scope;
  const at = (i: number): number => order[i] ?? i;
  const profileAgencies = [...order.map((a) => scope.profile.agencies[a]!).filter(Boolean), ...scope.profile.agencies.slice(order.length)];
  return {
    ...scope,
    agencies: order.map((a) => scope.agencies[a]!),
    profile: { ...scope.profile, agencies: profileAgencies },
    api: (i = 0) => scope.api(at(i)),
    hotel: (i = 0) => scope.hotel(at(i)),
    ...(scope.lastRequestAt ? { lastRequestAt: (kind: 'read' | 'write', i = 0) => scope.lastRequestAt!(kind, at(i)) } : {}),
  };
}
