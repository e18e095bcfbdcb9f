import { randomBytes } from 'node:crypto';
import { getArray, getField, getNumber, getString, fillPath, setTemplate } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import type { Scenario, Step } from '../../scenario/types.js';
import { interpolate, readPath, referencedNames } from '../../scenario/values.js';

/** Inner steps of a `repeat` are inlined at most this many times per journey. */
const MAX_REPEAT = 50;

/** A request a journey step sends, before signing. */
export interface BuiltRequest {
  method: string;
  /** Path relative to the base address, with `?query` when there is one. */
  path: string;
  body?: string | undefined;
  headers: Record<string, string>;
  /** The quote a booking redeems. */
  quote?: string | undefined;
}

/** What a step does with its response (the kinds that move money are tallied). */
export type StepEffect = 'none' | 'search' | 'book' | 'cancel';

/** Per-connection state of a journey: saved values, as a scenario's `save` leaves them. */
export interface JourneyContext {
  vars: Record<string, unknown>;
}

/** One request step of a journey, compiled from a scenario step. */
export interface LoadStep {
  /** Operation name for figures (`search`, `book`, …). */
  op: string;
  /** Rate-limit bucket (profile words). */
  bucket: string;
  effect: StepEffect;
  /** Where it came from in the scenario (`steps[2]`). */
  at: string;
  /** Builds the request from the context; undefined when a value it needs was never saved (the journey restarts). */
  build(ctx: JourneyContext): BuiltRequest | undefined;
  /** Applies the response: saves values. Returns the view it read. */
  after(ctx: JourneyContext, status: number, json: unknown): Record<string, unknown>;
  /** Whether `after` needs the parsed body. */
  needsBody: boolean;
  /** Statuses the scenario expects of this step (`expect.status`, `expect.code`): not errors under load. */
  expected: ReadonlySet<number>;
  /** A booking's stand-in, a search of its product, sent when the booking would overdraw the wallet. */
  substitute?: (() => BuiltRequest) | undefined;
}

/** A scenario compiled into load steps. */
export interface Journey {
  name: string;
  steps: LoadStep[];
  /** The products its steps need open (a step that expects the closed-product refusal needs nothing). */
  products: ReadonlySet<string>;
  /** Steps left out under load, and why. */
  skipped: string[];
}

class Missing extends Error {}

/** Scenario actions addressed to one product's endpoints. */
const PRODUCT_ACTIONS: ReadonlySet<string> = new Set(['search', 'book', 'cancel', 'get_booking']);

/** The failure statuses a scenario step expects on purpose: its `expect.status` and the status of its `expect.code`. */
function expectedStatuses(step: Step, profile: Profile): ReadonlySet<number> {
  const out = new Set<number>();
  const e = step.expect;
  if (!e) return out;
  for (const s of Array.isArray(e.status) ? e.status : e.status !== undefined ? [e.status] : []) if (Number.isInteger(s) && (s < 200 || s > 299)) out.add(s);
  const code = e.code !== undefined ? profile.errors[e.code as keyof Profile['errors']] : undefined;
  if (code) out.add(code.status);
  return out;
}

/** A value unique across runs: idempotency keys and references must never collide with an earlier run's. */
export function loadUnique(prefix = 'ld'): string {
  return `${prefix}-${randomBytes(12).toString('base64url')}`;
}

function resolver(ctx: JourneyContext, profile: Profile): (name: string) => unknown {
  return (name) => {
    if (name === 'unique') return loadUnique();
    if (name.startsWith('profile.')) return readPath(profile, name.slice('profile.'.length));
    if (!Object.hasOwn(ctx.vars, name)) throw new Missing(name);
    return ctx.vars[name];
  };
}

/** Bucket of a request, as the profile says (GET and search count as reads). */
export function bucketOf(profile: Profile, method: string, isSearch: boolean): string {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' || isSearch ? profile.values.bucket_read : profile.values.bucket_write;
}

function viewOf(profile: Profile, effect: StepEffect, status: number, json: unknown): Record<string, unknown> {
  const f = profile.fields;
  const base = { status, body: json };
  if (effect === 'search') {
    const offers = getArray(json, f.search_results)
      .map((item) => ({
        result_id: getString(item, f.result_id),
        quote_token: getString(item, f.result_quote_token),
        quote_expires_at: getString(item, f.result_quote_expires_at),
        price: getNumber(item, f.result_price_amount),
        currency: getString(item, f.result_price_currency),
      }))
      .filter((o) => o.quote_token !== undefined);
    const priced = offers.filter((o) => o.price !== undefined);
    const cheapest = priced.length ? priced.reduce((a, b) => ((b.price ?? Infinity) < (a.price ?? Infinity) ? b : a)) : offers[0];
    return { ...base, offers, cheapest };
  }
  if (effect === 'book')
    return {
      ...base,
      booking_id: getField(json, f.booking_id),
      booking_status: getField(json, f.booking_status),
      price: getField(json, f.booking_price_amount),
    };
  if (effect === 'cancel') return { ...base, refund: getField(json, f.cancellation_refund_amount), cancellation_status: getField(json, f.cancellation_status) };
  return base;
}

/** The offers of a search's answer (quote token and price of each), as a `search` step's view holds them. */
export function searchOffers(profile: Profile, json: unknown): unknown {
  return viewOf(profile, 'search', 200, json).offers;
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * Compiles a scenario into the requests of a load journey. Each request is
 * built afresh when sent (fresh idempotency keys and references unless the
 * scenario pins them; signing happens later, per send). Values flow as the
 * scenario's `save` says (a search's quote token into the booking); `set`
 * steps are evaluated before the next request; `repeat` is inlined; `wait`
 * is not honoured under load.
 */
export function compileJourney(scenario: Scenario, profile: Profile): Journey {
  const ops = profile.operations;
  const h = profile.headers;
  const skipped: string[] = [];
  const steps: LoadStep[] = [];
  const products = new Set<string>();
  let pendingSets: Array<Record<string, unknown>> = [];

  const flatten = (list: Step[]): Step[] =>
    list.flatMap((s) => {
      if (s.action !== 'repeat') return [s];
      const count = Math.min(MAX_REPEAT, Number(s.params.count) || 0);
      if (Number(s.params.count) > MAX_REPEAT) skipped.push(`${s.at}: repeat ${String(s.params.count)} inlined ${MAX_REPEAT} times`);
      const inner = flatten(s.steps ?? []);
      return Array.from({ length: count }, () => inner).flat();
    });

  for (const step of flatten(scenario.steps)) {
    const p = step.params;
    if (step.action === 'wait') {
      skipped.push(`${step.at}: wait is not honoured under load`);
      continue;
    }
    if (step.action === 'set') {
      pendingSets.push(p);
      continue;
    }
    const product = (p.product as string | undefined) ?? scenario.product ?? profile.products[0] ?? '';
    const sets = pendingSets;
    pendingSets = [];
    let op: string = step.action;
    let effect: StepEffect = 'none';
    let method: string;
    let make: (r: (name: string) => unknown) => { path: string; body?: string | undefined; headers?: Record<string, string> | undefined; quote?: unknown };
    const idem = (r: (name: string) => unknown): Record<string, string> => {
      if (p.idempotency_key === null) return {};
      const key = p.idempotency_key === undefined ? loadUnique('idem') : String(interpolate(p.idempotency_key, r));
      return { [h.idempotency_key]: key };
    };
    switch (step.action) {
      case 'account':
        method = ops.account.method;
        make = () => ({ path: ops.account.path });
        break;
      case 'balance':
        method = ops.wallet_balance.method;
        make = () => ({ path: ops.wallet_balance.path });
        break;
      case 'rates':
        method = ops.wallet_rates.method;
        make = () => ({ path: ops.wallet_rates.path });
        break;
      case 'statement': {
        const q = profile.statement_query ?? { limit: 'limit', cursor: 'cursor' };
        method = ops.wallet_statement.method;
        make = () => ({ path: `${ops.wallet_statement.path}?${encodeURIComponent(q.limit)}=${profile.limits.statement_page_size}` });
        break;
      }
      case 'search':
        method = ops.search.method;
        effect = 'search';
        make = (r) => {
          const criteria = p.criteria !== undefined ? interpolate(p.criteria, r) : (profile.search_criteria[product] ?? {});
          return { path: fillPath(ops.search.path, { product }), body: JSON.stringify(setTemplate(profile.search_body, { criteria })) };
        };
        break;
      case 'book':
        method = ops.create_booking.method;
        effect = 'book';
        make = (r) => {
          const quote = interpolate(p.quote, r);
          const ref = p.client_reference !== undefined ? interpolate(p.client_reference, r) : loadUnique('ref');
          const body =
            p.body !== undefined
              ? bodyText(interpolate(p.body, r))
              : JSON.stringify(setTemplate(profile.booking_body, { quote_token: quote, client_reference: ref }));
          return { path: fillPath(ops.create_booking.path, { product }), body, headers: idem(r), quote };
        };
        break;
      case 'cancel':
        method = ops.cancel_booking.method;
        effect = 'cancel';
        make = (r) => {
          const booking = String(interpolate(p.booking, r));
          const body = p.body !== undefined ? bodyText(interpolate(p.body, r)) : JSON.stringify(setTemplate(profile.cancel_body ?? {}, {}));
          return { path: fillPath(ops.cancel_booking.path, { product, booking_id: booking }), body, headers: idem(r) };
        };
        break;
      case 'get_booking':
        method = ops.get_booking.method;
        op = 'get_booking';
        make = (r) => ({ path: fillPath(ops.get_booking.path, { product, booking_id: String(interpolate(p.booking, r)) }) });
        break;
      default:
        skipped.push(`${step.at}: ${step.action} is not a request`);
        continue;
    }
    const bucket = bucketOf(profile, method, step.action === 'search');
    const expected = expectedStatuses(step, profile);
    if (PRODUCT_ACTIONS.has(step.action) && !expected.has(profile.errors.module_not_enabled.status)) products.add(product);
    const save = step.save;
    steps.push({
      op,
      bucket,
      effect,
      at: step.at,
      needsBody: effect !== 'none' || save !== undefined,
      expected,
      substitute:
        step.action === 'book'
          ? () => ({
              method: ops.search.method.toUpperCase(),
              path: fillPath(ops.search.path, { product }),
              body: JSON.stringify(setTemplate(profile.search_body, { criteria: profile.search_criteria[product] ?? {} })),
              headers: { 'content-type': 'application/json' },
            })
          : undefined,
      build(ctx) {
        const r = resolver(ctx, profile);
        try {
          for (const s of sets) for (const [k, v] of Object.entries(s)) ctx.vars[k] = interpolate(v, r);
          const built = make(r);
          const headers: Record<string, string> = { ...built.headers };
          if (built.body !== undefined && built.body.length > 0) headers['content-type'] = 'application/json';
          return {
            method: method.toUpperCase(),
            path: built.path,
            body: built.body,
            headers,
            ...(typeof built.quote === 'string' ? { quote: built.quote } : {}),
          };
        } catch (err) {
          if (err instanceof Missing) return undefined;
          throw err;
        }
      },
      after(ctx, status, json) {
        const view = viewOf(profile, effect, status, json);
        if (save) {
          for (const [name, path] of Object.entries(save)) {
            const v = status >= 200 && status <= 299 ? readPath(view, path) : undefined;
            if (v === undefined) delete ctx.vars[name];
            else ctx.vars[name] = v;
          }
        }
        return view;
      },
    });
  }
  // The first request is built before any response: it may use only built-in values.
  const first = scenario.steps.find((s) => s.action !== 'wait');
  if (first && referencedNames(first.params).some((n) => n !== 'unique' && !n.startsWith('profile.'))) {
    return { name: scenario.name, steps: [], products, skipped: [...skipped, 'its first request needs a saved value'] };
  }
  return { name: scenario.name, steps, products, skipped };
}
