/*
 * What is known of scenarios before they run: the order they run in, the
 * target time they wait, and the agency each runs as. The runner plans a
 * real-time run with these, and the scenario runner follows the same rules.
 */
import type { ClockDriver } from '../clock/clock-driver.js';
import { overMaxWait } from '../clock/max-wait.js';
import type { Profile } from '../profile/index.js';
import { ANY_WITH_PRODUCT, type Scenario, type Step } from './types.js';
import { interpolate, readPath } from './values.js';

/** True when a step of `steps` (a repeated one too) waits: a `wait` or a `rest`. */
function waits(steps: readonly Step[]): boolean {
  return steps.some((s) => s.action === 'wait' || s.action === 'rest' || (s.action === 'repeat' && waits(s.steps ?? [])));
}

/** True when scenario `s` waits (a `wait` or `rest` step). */
export function scenarioWaits(s: Pick<Scenario, 'steps'>): boolean {
  return waits(s.steps);
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
  return waitsMs(scenarios, profile, quoteLifetimeS);
}

/**
 * Why scenario `s` is skipped before it sends anything: against a clock that
 * cannot be moved, one of its `wait` steps known before it runs (the profile
 * read as the run reads it) or `rest` steps (a window) waits longer than
 * `maxWaitMs` (`overMaxWait`, the one rule for long waits in real time).
 * Undefined when it runs; a wait that depends on a value saved at run time
 * is held against the bound when it comes.
 */
export function scenarioOverMaxWait(
  s: Pick<Scenario, 'steps'>,
  profile: Readonly<Profile>,
  clock: Pick<ClockDriver, 'kind'>,
  maxWaitMs: number | undefined,
): string | undefined {
  if (clock.kind !== 'real') return undefined;
  const resolve = resolver(profile, undefined);
  const windowMs = profile.limits.window_s * 1000;
  const of = (steps: readonly Step[]): string | undefined => {
    for (const step of steps) {
      const ms = step.action === 'wait' ? waitStepMs(step, resolve) : step.action === 'rest' ? windowMs : undefined;
      const over = ms === undefined ? undefined : overMaxWait(clock, ms, maxWaitMs);
      if (over) return `${step.at} (${step.action}${step.name ? ` "${step.name}"` : ''}) ${over}`;
      const inner = step.action === 'repeat' ? of(step.steps ?? []) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return of(s.steps);
}

/** Shortest `wait` step through which a scenario in a real-time suite run gives the run's lease back, ms. */
export const AWAY_MIN_MS = 1_000;

/**
 * Shortest wait that may run long, ms: at least a quote's lifetime (the
 * learned one when known) and a rate-limit window. Every quote taken before
 * it has expired by its end, and every request before it has left the
 * window; neither comes back, so a scenario that waits longer sees the same.
 */
export function longWaitMs(profile: Readonly<Profile>, quoteLifetimeS?: number): number {
  return Math.max(quoteLifetimeS ?? profile.quotes.lifetime_s, profile.limits.window_s) * 1000;
}

/** How the `wait` steps of scenarios spend a real-time suite run, ms (see {@link scenarioWaitPlan}). */
interface ScenarioWaits {
  /** The first long wait made alone (see {@link longWaitMs}): the properties run beside it. */
  beside: number;
  /** The other waits made alone of at least {@link AWAY_MIN_MS}: the scenarios hold nothing of their lease through them. */
  away: number;
}

/**
 * How the `wait` steps of `scenarios` spend a real-time suite run: the first
 * long one made alone (not within a concurrent repeat) when the properties
 * may run beside it (`beside`), and the others made alone of a second or
 * more, away. A `rest` keeps its buckets: others using them would push its
 * rest back.
 */
export function scenarioWaitPlan(
  scenarios: readonly Scenario[],
  profile: Readonly<Profile>,
  quoteLifetimeS: number | undefined,
  beside: boolean,
): ScenarioWaits {
  const long = longWaitMs(profile, quoteLifetimeS);
  const out = { beside: 0, away: 0 };
  const alone = waitList(scenarios, profile, quoteLifetimeS);
  for (const ms of alone) {
    if (beside && out.beside === 0 && ms >= long) out.beside = ms;
    else if (ms >= AWAY_MIN_MS) out.away += ms;
  }
  return out;
}

/** The durations of the `wait` steps made alone (not within a concurrent repeat), in order, each repeat's as many times as it repeats. */
function waitList(scenarios: readonly Scenario[], profile: Readonly<Profile>, quoteLifetimeS: number | undefined): number[] {
  const resolve = resolver(profile, quoteLifetimeS);
  const of = (steps: readonly Step[]): number[] =>
    steps.flatMap((step) => {
      if (step.action === 'repeat')
        return step.params.concurrent === true ? [] : Array.from({ length: Number(step.params.count ?? 1) }, () => of(step.steps ?? [])).flat();
      if (step.action !== 'wait') return [];
      const ms = waitStepMs(step, resolve);
      return ms === undefined ? [] : [ms];
    });
  return scenarios.flatMap((s) => of(s.steps));
}

/** Reads `{{profile.…}}` values, the quote lifetime the service answered when known. */
function resolver(profile: Readonly<Profile>, quoteLifetimeS: number | undefined): (name: string) => unknown {
  const view = quoteLifetimeS === undefined ? profile : { ...profile, quotes: { ...profile.quotes, lifetime_s: quoteLifetimeS } };
  return (name) => (name.startsWith('profile.') ? readPath(view, name.slice('profile.'.length)) : undefined);
}

/** A `wait` step's duration, ms; undefined when it depends on a value saved at run time. */
function waitStepMs(step: Step, resolve: (name: string) => unknown): number | undefined {
  const par = step.params;
  let n = NaN;
  try {
    n = Number(interpolate(par.ms ?? par.s, resolve));
  } catch {
    // a value saved at run time: unknown here
  }
  if (!Number.isFinite(n) || n < 0) return undefined;
  return par.ms !== undefined ? n : n * 1000;
}

function waitsMs(scenarios: readonly Scenario[], profile: Readonly<Profile>, quoteLifetimeS: number | undefined): number {
  const resolve = resolver(profile, quoteLifetimeS);
  const windowMs = profile.limits.window_s * 1000;
  const of = (steps: readonly Step[]): number =>
    steps.reduce((sum, step) => {
      if (step.action === 'repeat') {
        const inner = of(step.steps ?? []);
        return sum + (step.params.concurrent === true ? inner : inner * Number(step.params.count ?? 1));
      }
      if (step.action === 'rest') return sum + windowMs;
      return step.action === 'wait' ? sum + (waitStepMs(step, resolve) ?? 0) : sum;
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
