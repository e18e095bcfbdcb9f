/* What a check sent, by bucket and resource, and what it declares to the scheduler: the two compared. */
import type { Check } from '../../src/checks/types.js';
import type { Exchange } from '../../src/client/exchange.js';
import type { Profile } from '../../src/profile/types.js';
import { leaseFor, rolesOf } from '../../src/runner/agency-binding.js';
import { requestsTo } from '../../src/runner/lease-planner.js';
import { demandOf } from '../../src/runner/schedule-unit.js';

/** What a check really sent, agencies by their index in the profile (the check's roles, where it runs unbound). */
export interface Traffic {
  /** Requests counted per bucket (`<agency>:read`, `<agency>:write`), as the reference API counts them. */
  buckets: Record<string, number>;
  /** Agencies it booked or cancelled with (their wallets). */
  wallet: number[];
  /** Agencies it called the hotel API as (the roles it asked `ctx.hotel` for: the recorded API key is redacted). */
  hotel: number[];
}

/** What a check declares, as the scheduler leases it when role i is agency i. */
export interface Declared {
  resources: readonly string[];
  fills: readonly string[];
  requestsTo(bucket: string): number;
}

/** The lease of `check` with its roles played by the agencies of the same index. */
export function declaredTraffic(check: Check, agencyCount = 3): Declared {
  const binding = rolesOf(check) === 2 ? [0, 1] : [0];
  const lease = leaseFor(demandOf(check), binding, agencyCount);
  return { resources: lease.resources, fills: lease.fills, requestsTo: (b) => requestsTo(lease, b) };
}

function pathRegex(template: string): RegExp {
  const parts = template.split(/\{[A-Za-z0-9_]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`${parts.join('[^/]+')}$`);
}

/**
 * Sorts `exchanges` into the buckets of the profile's agencies (GET and search
 * are reads, the rest writes) and the wallets their accepted bookings and
 * cancellations moved; `hotel` are the agencies it used the hotel API as.
 */
export function measuredTraffic(exchanges: readonly Exchange[], profile: Readonly<Profile>, hotel: readonly number[] = []): Traffic {
  const out: Traffic = { buckets: {}, wallet: [], hotel: [...hotel].sort() };
  const auth = profile.headers.authorization.toLowerCase();
  const op = (name: keyof Profile['operations']): { method: string; path: RegExp } => ({
    method: profile.operations[name].method.toUpperCase(),
    path: pathRegex(profile.operations[name].path),
  });
  const search = op('search');
  const charging = [op('create_booking'), op('cancel_booking')];
  const add = (list: number[], a: number): void => {
    if (!list.includes(a)) list.push(a);
  };
  for (const x of exchanges) {
    const method = x.request.method.toUpperCase();
    const path = x.request.url.split('?')[0]!;
    if (profile.hotel_base_url && x.request.url.startsWith(profile.hotel_base_url)) continue;
    const signature = x.request.headers[auth];
    if (!signature) continue;
    const named = /Credential=([^,\s]+)/.exec(signature)?.[1];
    const agency = profile.agencies.findIndex((a) => a.key_id === named);
    // A signature naming a key of no agency (a check forging one) counts nowhere: the service refuses it before any bucket.
    if (agency < 0) continue;
    const read = method === 'GET' || method === 'HEAD' || (method === search.method && search.path.test(path));
    const bucket = `${agency}:${read ? 'read' : 'write'}`;
    out.buckets[bucket] = (out.buckets[bucket] ?? 0) + 1;
    // A refused booking moves no wallet at a correct service (a closed product's, say): only an accepted one is wallet use.
    const accepted = x.response !== undefined && x.response.status >= 200 && x.response.status < 300;
    if (accepted && charging.some((c) => c.method === method && c.path.test(path))) add(out.wallet, agency);
  }
  return out;
}

/** What `traffic` shows a check using beyond `declared`, one line each; empty when it kept to it. */
export function trafficBeyondDeclared(traffic: Traffic, declared: Declared): string[] {
  const out: string[] = [];
  for (const [bucket, n] of Object.entries(traffic.buckets).sort(([a], [b]) => a.localeCompare(b))) {
    if (!declared.resources.includes(bucket)) {
      out.push(`sent to ${bucket}, which it does not declare`);
      continue;
    }
    if (declared.fills.includes(bucket)) continue;
    const allowed = declared.requestsTo(bucket);
    if (n > allowed) out.push(`sent ${n} requests to ${bucket}, declares ${allowed}`);
  }
  for (const a of traffic.wallet)
    if (!declared.resources.includes(`${a}:wallet`)) out.push(`booked or paid with agency ${a}, but does not declare ${a}:wallet`);
  for (const a of traffic.hotel)
    if (!declared.resources.includes(`${a}:hotel`)) out.push(`called the hotel API as agency ${a}, but does not declare ${a}:hotel`);
  return out;
}

/** The traffic of several checks together (the members of one episode, whose first member sends for all). */
export function mergedTraffic(list: readonly Traffic[]): Traffic {
  const out: Traffic = { buckets: {}, wallet: [], hotel: [] };
  for (const t of list) {
    for (const [b, n] of Object.entries(t.buckets)) out.buckets[b] = (out.buckets[b] ?? 0) + n;
    out.wallet = [...new Set([...out.wallet, ...t.wallet])].sort((a, b) => a - b);
    out.hotel = [...new Set([...out.hotel, ...t.hotel])].sort((a, b) => a - b);
  }
  return out;
}

/**
 * Each bucket `declared` fills that `traffic` did not: fewer requests than the
 * bucket's limit (`limitOf`), one line each; empty when every fill was one.
 */
export function fillsNotMade(traffic: Traffic, declared: Declared, limitOf: (bucket: string) => number | undefined): string[] {
  const out: string[] = [];
  for (const bucket of declared.fills) {
    const limit = limitOf(bucket);
    const n = traffic.buckets[bucket] ?? 0;
    if (limit === undefined) out.push(`declares it fills ${bucket}, whose limit is unknown`);
    else if (n < limit) out.push(`declares it fills ${bucket}, but sent ${n} requests to it (its limit is ${limit})`);
  }
  return out;
}

/** How far a declared request count may exceed what a check sent before it is noted: twice the count sent, and this many more. */
const NOTED_SLACK = 3;

/**
 * Buckets `declared` gives many more requests than `traffic` shows (at least
 * twice and {@link NOTED_SLACK} more), and hotel accounts it declares but never
 * used: a declaration too generous only slows a schedule, so these are notes.
 */
export function declaredFarBeyondTraffic(traffic: Traffic, declared: Declared): string[] {
  const out: string[] = [];
  for (const bucket of declared.resources) {
    if (!/:(read|write)$/.test(bucket) || declared.fills.includes(bucket)) continue;
    const allowed = declared.requestsTo(bucket);
    const n = traffic.buckets[bucket] ?? 0;
    if (allowed >= 2 * n + NOTED_SLACK) out.push(`declares ${allowed} requests to ${bucket}, sent ${n}`);
  }
  for (const r of declared.resources) {
    const hotel = /^(\d+):hotel$/.exec(r);
    if (hotel && !traffic.hotel.includes(Number(hotel[1]))) out.push(`declares ${r}, never called the hotel API as agency ${hotel[1]}`);
  }
  return out;
}
