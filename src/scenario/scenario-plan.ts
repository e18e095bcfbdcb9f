/*
 * What is known of scenarios before they run: the order they run in, the
 * target time they wait, and the agency each runs as. The runner plans a
 * real-time run with these, and the scenario runner follows the same rules.
 */
import type { Profile } from '../profile/index.js';
import { ANY_WITH_PRODUCT, type Scenario, type Step } from './types.js';
import { interpolate, readPath } from './values.js';

/** True when a step of `steps` (a repeated one too) waits: a `wait` or a `rest`. */
function waits(steps: readonly Step[]): boolean {
  return steps.some((s) => s.action === 'wait' || s.action === 'rest' || (s.action === 'repeat' && waits(s.steps ?? [])));
}

/**
 * The order scenarios run in: those that wait (a `wait` or `rest` step) after
 * the others, file order kept within each group. Their waits then let the
 * requests of the scenarios before them leave the rate-limit window before
 * what runs next (the properties, in a suite run).
 */
export function runOrder<T extends Pick<Scenario, 'steps'>>(list: readonly T[]): T[] {
  return [...list.filter((s) => !waits(s.steps)), ...list.filter((s) => waits(s.steps))];
}

/**
 * Target time the `wait` and `rest` steps of `scenarios` take, ms, at most
 * (to plan real-time runs). A
 * duration naming the profile (`{{profile.limits.window_s}}`) is read from it;
 * one naming the quote lifetime takes the lifetime the service answered when
 * known. A duration that depends on values saved at run time counts as 0. A
 * rest counts a window: the buckets rest a window after the last request
 * they got.
 */
export function scenarioWaitsMs(scenarios: readonly Scenario[], profile: Readonly<Profile>, quoteLifetimeS?: number): number {
  return waitsMs(scenarios, profile, quoteLifetimeS, { rests: true, concurrent: true });
}

/** Shortest `wait` step through which a scenario in a real-time suite run gives the run's lease back, ms. */
export const AWAY_MIN_MS = 1_000;

/**
 * Of {@link scenarioWaitsMs}, the `wait` steps a scenario makes alone (not
 * within a concurrent repeat) of at least {@link AWAY_MIN_MS}: in a real-time suite run
 * the scenarios hold nothing of their lease through them. A `rest` keeps its
 * buckets: others using them would push its rest back.
 */
export function scenarioAwayMs(scenarios: readonly Scenario[], profile: Readonly<Profile>, quoteLifetimeS?: number): number {
  return waitsMs(scenarios, profile, quoteLifetimeS, { rests: false, concurrent: false, minMs: AWAY_MIN_MS });
}

function waitsMs(
  scenarios: readonly Scenario[],
  profile: Readonly<Profile>,
  quoteLifetimeS: number | undefined,
  o: { rests: boolean; concurrent: boolean; minMs?: number },
): number {
  const view = quoteLifetimeS === undefined ? profile : { ...profile, quotes: { ...profile.quotes, lifetime_s: quoteLifetimeS } };
  const resolve = (name: string): unknown => (name.startsWith('profile.') ? readPath(view, name.slice('profile.'.length)) : undefined);
  const windowMs = profile.limits.window_s * 1000;
  const of = (steps: readonly Step[]): number =>
    steps.reduce((sum, step) => {
      const par = step.params;
      if (step.action === 'repeat') {
        if (par.concurrent === true) return o.concurrent ? sum + of(step.steps ?? []) : sum;
        return sum + of(step.steps ?? []) * Number(par.count ?? 1);
      }
      if (step.action === 'rest') return o.rests ? sum + windowMs : sum;
      if (step.action !== 'wait') return sum;
      let n = NaN;
      try {
        n = Number(interpolate(par.ms ?? par.s, resolve));
      } catch {
        // a value saved at run time: unknown here
      }
      if (!Number.isFinite(n) || n < 0) return sum;
      const ms = par.ms !== undefined ? n : n * 1000;
      return ms >= (o.minMs ?? 0) ? sum + ms : sum;
    }, 0);
  return scenarios.reduce((sum, s) => sum + of(s.steps), 0);
}

/** Actions that send one request into the write bucket; the others that send one, into the read bucket. */
const WRITES: ReadonlySet<string> = new Set(['book', 'cancel']);
const READS: ReadonlySet<string> = new Set(['account', 'search', 'get_booking', 'balance', 'statement', 'rates']);

/**
 * Requests the steps of `scenarios` send to the buckets of the agency they
 * run as, at least (to plan real-time runs): a step's own request, and the
 * wallet read before and after a step that expects a balance change. Picking
 * an agency and a refusal waited out send more.
 */
export function scenarioRequests(scenarios: readonly Scenario[]): { read: number; write: number } {
  const of = (steps: readonly Step[]): { read: number; write: number } =>
    steps.reduce(
      (n, step) => {
        if (step.action === 'repeat') {
          const inner = of(step.steps ?? []);
          const count = Number(step.params.count ?? 1);
          return { read: n.read + inner.read * count, write: n.write + inner.write * count };
        }
        const deltas = step.expect?.balance_delta !== undefined ? 2 : 0;
        return { read: n.read + (READS.has(step.action) ? 1 : 0) + deltas, write: n.write + (WRITES.has(step.action) ? 1 : 0) };
      },
      { read: 0, write: 0 },
    );
  return scenarios.reduce(
    (n, s) => {
      const m = of(s.steps);
      return { read: n.read + m.read, write: n.write + m.write };
    },
    { read: 0, write: 0 },
  );
}

/** What is known of one agency when a scenario picks its agency: the products open for it (undefined: unknown) and its balance. */
export interface AgencyView {
  index: number;
  id: string;
  open: readonly string[] | undefined;
  balance: number | undefined;
  /** Its write limit per window, when known. */
  writeLimit?: number | undefined;
}

/**
 * The agency a scenario runs as, among `candidates` (the run's agencies it may
 * use, `total` agencies in all): an index or id as named (its product open),
 * or for `any-with-product` the largest balance among those with the product
 * open, so that a happy path is not skipped for want of funds. `unknown` when
 * a product list it needs was not read; otherwise the index, or why it skips.
 */
export function chooseAgency(
  s: Pick<Scenario, 'agency' | 'product'>,
  candidates: readonly AgencyView[],
  agencies: ReadonlyArray<{ id: string }>,
): { index: number } | { skip: string } | 'unknown' {
  const opens = (a: AgencyView): boolean | undefined => (s.product === undefined ? true : a.open === undefined ? undefined : a.open.includes(s.product));
  if (s.agency === ANY_WITH_PRODUCT) {
    let best: AgencyView | undefined;
    for (const a of candidates) {
      const open = opens(a);
      if (open === undefined) return 'unknown';
      if (open && (best === undefined || (a.balance ?? 0) > (best.balance ?? 0))) best = a;
    }
    if (best) return { index: best.index };
    return { skip: `no agency of the profile (${agencies.map((a) => a.id).join(', ')}) has ${s.product} open` };
  }
  let index: number;
  if (typeof s.agency === 'number') {
    if (s.agency >= agencies.length) return { skip: `needs agency #${s.agency}; the profile has ${agencies.length}` };
    index = s.agency;
  } else {
    index = agencies.findIndex((a) => a.id === s.agency);
    if (index < 0) return { skip: `needs agency ${s.agency}, which the profile does not name` };
  }
  const named = candidates.find((a) => a.index === index);
  if (!named) return { skip: `agency ${agencies[index]!.id} is not one this run leaves to the scenarios` };
  const open = opens(named);
  if (open === undefined) return 'unknown';
  return open ? { index } : { skip: `${s.product} is closed for ${agencies[index]!.id}` };
}
