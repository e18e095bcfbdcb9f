import * as fc from 'fast-check';
import { getField } from '../src/api/fields.js';
import type { ApiResponse } from '../src/api/types.js';
import { fillPath, queryString, type RequestOperation, type RequestParameter } from '../src/openapi/generate/operation-inputs.js';
import { resolvePointer } from '../src/openapi/json-pointer.js';
import { loadOpenApiDocument, type OpenApiDocument } from '../src/openapi/load-document.js';
import { responseValidatorFor } from '../src/openapi/response-validator.js';
import { describeEvent, EventWatch, type StrayEvent } from './_internal/event-watch.js';
import { planInputs, renderCase, type InputCase } from './_internal/input-cases.js';
import type { PropertyEnv } from './_internal/property-env.js';
import type { Decisive } from './_internal/violation.js';
import type { Bucket } from './_internal/rate-budget.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';

/** What one operation was given over the run's first pass (shrinks not counted). */
interface Tally {
  valid: number;
  invalid: number;
  keywords: Set<string>;
}

/** One case sent: the case, what it was sent as, and the answer. */
interface Sent {
  c: InputCase;
  shown: string;
  bucket: Bucket;
  res: ApiResponse;
}

const ok = (s: number): boolean => s >= 200 && s < 300;

/** A JSON pointer's segments (`/travellers/0/first_name` → travellers, 0, first_name). */
const pointerTokens = (p: string): string[] =>
  p
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
/** A field name's segments, in whichever spelling a service gives (`travellers[0].first_name`, `travellers/0/first_name`). */
const fieldTokens = (f: string): string[] => f.split(/[.[\]/]+/).filter((t) => t !== '');

/** True when a field a 422 names is the broken place: the one ends the other (a service may name it from the body's root or from a part of it). */
function names(field: string, pointer: string, param?: string): boolean {
  const a = fieldTokens(field);
  const b = param ? [param] : pointerTokens(pointer);
  if (b.length === 0) return true;
  if (a.length === 0) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.every((t, i) => long[long.length - short.length + i] === t);
}

/** The signed request of a case: method, path (under the profile's base URL), query, body and headers. */
function requestOf(env: PropertyEnv, c: InputCase, needsKey: (op: RequestOperation) => string | undefined) {
  if (c.kind === 'method') return { method: c.method, path: fillPath(c.path, c.values), query: undefined, body: undefined, headers: undefined };
  const key = needsKey(c.op);
  return {
    method: c.op.method,
    path: fillPath(c.op.path, c.request.path),
    query: queryString(c.request.query),
    body: c.request.body === undefined ? undefined : JSON.stringify(c.request.body),
    headers: key ? { [key]: env.unique('oi-key') } : undefined,
  };
}

/** The writes of a run that were refused (a rate-limit refusal aside), invalid inputs first: what a stray event came from. */
function refusedWrites(env: PropertyEnv, sent: readonly Sent[]): Sent[] {
  const refused = sent.filter((s) => s.bucket === 'write' && !ok(s.res.status) && !env.is(s.res, 'rate_limited'));
  const rank = (s: Sent): number => (s.c.kind === 'invalid' ? 0 : s.c.kind === 'method' ? 2 : 1);
  return refused.sort((a, b) => rank(a) - rank(b));
}

/** What a run's stray events say: the first event, and the refused writes sent beside it. */
function strayMessage(env: PropertyEnv, strays: readonly StrayEvent[], sent: readonly Sent[]): string {
  const refused = refusedWrites(env, sent);
  const others = strays.length > 1 ? ` (and ${strays.length - 1} more: ${strays.slice(1, 3).map(describeEvent).join(', ')})` : '';
  const event = `event ${describeEvent(strays[0]!)}${others} reached the agency's webhook endpoint, and no write the service accepted names it`;
  if (refused.length === 0) return `${event}: the run's writes were all accepted or none was sent`;
  const first = refused[0]!;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more refused write${refused.length > 2 ? 's' : ''})` : '';
  return `${event}: a refused request emitted it — ${first.shown} answered ${env.describe(first.res)}${more}`;
}

/**
 * The whole property on one environment: it loads the document, plans the
 * inputs, and judges each run's answers, the wallet around them and the
 * agency's webhook events. In real time its cases' writes fit what the write
 * bucket has free once the agency's endpoint is set.
 */
async function buildInputs(env: PropertyEnv, realTime = false): Promise<BuiltProperty<Array<InputCase | null>> & { left: number; free: number | undefined }> {
  const ctx = env.ctx;
  const p = ctx.profile;
  const doc: OpenApiDocument = await loadOpenApiDocument(p.openapi);
  const validator = responseValidatorFor(doc);
  const { open } = await env.api.openProducts({ label: env.label('open products') });
  // The events the inputs cause reach a receiver path of the run's own; without one they are not judged, and the case says so.
  const watch = await EventWatch.open(env);
  const events = 'unjudged' in watch ? undefined : watch;
  const maxWrites = realTime ? Math.max(0, env.budget.free('write') - (events?.restoreWrites ?? 0)) : undefined;
  // A path under a product outside the contract answers 403 whatever the input: its operations are left out, and an enum of products is narrowed to the open ones.
  const productPaths = Object.values(p.operations)
    .filter((o) => o.path.includes('{product}'))
    .map(
      (o) =>
        new RegExp(
          `^${o.path
            .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
            .replace(/\{product\}/g, '([^/]+)')
            .replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
    );
  const closed = (path: string): boolean =>
    productPaths.some((re) => {
      const m = re.exec(path);
      return m !== null && p.products.includes(m[1]!) && !open.includes(m[1]!);
    });
  const schemaOf = (param: RequestParameter): unknown => {
    const s = param.schema as { $ref?: string } | undefined;
    const resolved = (typeof s?.$ref === 'string' ? resolvePointer(doc, s.$ref)?.value : s) as { enum?: unknown[] } | undefined;
    if (!Array.isArray(resolved?.enum) || !resolved.enum.some((v) => p.products.includes(String(v)))) return param.schema;
    return { ...resolved, enum: resolved.enum.filter((v) => open.includes(String(v))) };
  };
  const searchPath =
    productPaths[
      Object.values(p.operations)
        .filter((o) => o.path.includes('{product}'))
        .findIndex((o) => o === p.operations.search)
    ];
  const bucketOf = (method: string, path: string): Bucket =>
    method === 'GET' || method === 'HEAD' || (method === p.operations.search.method.toUpperCase() && searchPath?.test(path)) ? 'read' : 'write';
  const writes = maxWrites === undefined ? undefined : { isWrite: (method: string, path: string) => bucketOf(method, path) === 'write', max: maxWrites };
  const plan = planInputs({ ...doc, paths: Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([path]) => !closed(path))) }, schemaOf, writes);
  const idempotencyHeader = (op: RequestOperation): string | undefined =>
    op.parameters.find((x) => x.in === 'header' && x.required && x.name.toLowerCase() === p.headers.idempotency_key.toLowerCase())
      ? p.headers.idempotency_key
      : undefined;
  const e = p.errors;
  const tallies = new Map<string, Tally>(plan.operations.map((op) => [op.name, { valid: 0, invalid: 0, keywords: new Set<string>() }]));
  const probes = new Map<string, number>();
  let counting = true;
  /** What the first failing run found: a shrink of a failure the events did not make looks at them without waiting. */
  let failedOn: 'events' | 'other' | undefined;

  const judge = (s: Sent): string | undefined => {
    const { c, res } = s;
    const said = env.describe(res);
    if (res.status >= 500) return `${s.shown}: answered ${said}, a server error`;
    if (c.kind === 'method') {
      if (res.status === e.method_not_allowed.status && env.api.errorCode(res) === e.method_not_allowed.code) return undefined;
      return `${s.shown}: answered ${said}, expected ${e.method_not_allowed.status} ${e.method_not_allowed.code}`;
    }
    const broken = c.request.broken;
    if (c.kind === 'valid') {
      if (ok(res.status)) return undefined;
      if (res.status === e.unauthenticated.status) return `${s.shown}: a valid, correctly signed input answered ${said}`;
      const j = validator.judge(res.exchange);
      const listed = c.op.statuses.includes(String(res.status)) || c.op.ranges.includes(`${Math.floor(res.status / 100)}XX`);
      if (!listed) return `${s.shown}: a valid input refused with ${said}, which the document does not list for ${c.op.name}`;
      if (j.judged && j.violations.length > 0)
        return `${s.shown}: a valid input refused with ${said}, not as the document lists it for ${c.op.name} (${j.violations.map((v) => `${v.pointer} ${v.message}`).join(', ')})`;
      return undefined;
    }
    const statuses = [e.validation_failed.status, e.invalid_json.status, ...(broken?.part === 'path' ? [e.not_found.status] : [])];
    if (!statuses.includes(res.status)) return `${s.shown}: an invalid input answered ${said}, expected ${[...new Set(statuses)].join(' or ')}`;
    if (env.api.errorCode(res) === undefined) return `${s.shown}: an invalid input answered ${res.status} outside the error envelope`;
    if (res.status === e.validation_failed.status && env.api.errorCode(res) === e.validation_failed.code && broken) {
      const fields = getField(getField(res.json, p.fields.error_details), 'fields');
      const listed = Array.isArray(fields) ? fields.map((f) => (typeof f === 'string' ? f : String(getField(f, 'field') ?? ''))) : [];
      const param = broken.part === 'body' ? undefined : broken.pointer.slice(1);
      if (!listed.some((f) => names(f, broken.pointer, param)))
        return `${s.shown}: answered ${said} but ${p.fields.error_details}.fields (${listed.length ? listed.join(', ') : 'none'}) does not name ${broken.part} ${broken.pointer || '/'}`;
    }
    return undefined;
  };

  const property = fc.asyncProperty(plan.run, async (drawn) => {
    env.evidence = [];
    const cases = drawn.filter((c): c is InputCase => c !== null);
    const sends = cases.map((c) => {
      const r = requestOf(env, c, idempotencyHeader);
      return { c, r, bucket: bucketOf(r.method, r.path) };
    });
    const writes = sends.filter((x) => x.bucket === 'write').length;
    const reads = sends.length - writes + 8;
    await env.budget.ensure({ read: reads, write: writes });
    // Money moves only through writes: the wallet is read around them.
    const [before, entries] = writes ? await Promise.all([env.balanceRead('balance before'), env.statement('statement before')]) : [undefined, []];
    const sent: Sent[] = await Promise.all(
      sends.map(async ({ c, r, bucket }) => {
        const shown = renderCase(c, r.path, r.query);
        const res = env.track(
          await env.api.raw(r.method, r.path, r.body, { label: env.label(shown.slice(0, 160)), query: r.query, headers: r.headers }),
          bucket,
        );
        if (bucket === 'write') events?.wrote(res);
        return { c, shown, bucket, res };
      }),
    );
    if (counting) {
      for (const c of cases) {
        if (c.kind === 'method') {
          probes.set(c.path, (probes.get(c.path) ?? 0) + 1);
          continue;
        }
        const t = tallies.get(c.op.name)!;
        if (c.kind === 'valid') t.valid += 1;
        else {
          t.invalid += 1;
          const b = c.request.broken!;
          t.keywords.add(b.part === 'body' ? b.keyword : `${b.part} ${b.keyword}`);
        }
      }
    }
    // A request the rate limit refused says nothing of its input.
    const judged = sent.filter((s) => !env.is(s.res, 'rate_limited'));
    // Each problem with the exchanges that show it: the card opens on them, the fills and reads around them folded below.
    const problems: Array<{ message: string; decisive: Decisive[] }> = judged.flatMap((s) => {
      const message = judge(s);
      return message === undefined ? [] : [{ message, decisive: [s.res] }];
    });
    if (before !== undefined && !sent.some((s) => s.bucket === 'write' && ok(s.res.status))) {
      const after = await env.balanceRead('balance after');
      const known = new Set(entries.map((x) => x.id));
      const added = (await env.statementRead('statement after')).entries.filter((x) => !known.has(x.id));
      if (after.amount !== before.amount || added.length)
        problems.push({
          message: `${writes} refused writes changed the wallet: balance ${before.amount} → ${after.amount}${added.length ? `, ${added.length} new statement entr${added.length > 1 ? 'ies' : 'y'} (${added.map((x) => `${x.type} ${x.amount}`).join(', ')})` : ''}`,
          decisive: [before.exchange.id, ...refusedWrites(env, sent).map((w) => w.res), after.exchange.id],
        });
    }
    // Looked at once the wallet is read: an event a write caused comes within a short settle of its answer (not waited for where the run fails anyway).
    const strays = events ? await events.strays(problems.length === 0 && failedOn !== 'other') : [];
    if (strays.length) problems.push({ message: strayMessage(env, strays, sent), decisive: refusedWrites(env, sent).map((w) => w.res) });
    if (problems.length) {
      failedOn ??= strays.length && problems.length === 1 ? 'events' : 'other';
      counting = false;
      const [first, ...more] = problems.map((x) => x.message);
      env.fail(more.length > 0 ? `${first} (and ${more.length} more: ${more.slice(0, 2).join('; ')})` : first!, {
        decisive: problems.flatMap((x) => x.decisive),
      });
    }
  });
  return {
    property,
    left: plan.left,
    free: maxWrites,
    unjudged: () => ('unjudged' in watch ? `webhook events (${watch.unjudged})` : undefined),
    finish: () => events?.restore() ?? Promise.resolve(),
    render: (drawn) =>
      drawn
        .filter((c): c is InputCase => c !== null)
        .map((c) => {
          const r = requestOf(env, c, () => undefined);
          return renderCase(c, r.path, r.query);
        })
        .join(' | '),
    details: () => ({
      operations: [...tallies].map(([operation, t]) => ({ operation, valid: t.valid, invalid: t.invalid, keywords: [...t.keywords].sort() })),
      methodProbes: [...probes].map(([path, n]) => ({ path, probes: n })),
      ...(plan.unusable.length ? { unusable: plan.unusable } : {}),
      ...(open.length < p.products.length ? { productsLeftOut: p.products.filter((x) => !open.includes(x)) } : {}),
      events: 'unjudged' in watch ? { judged: false, why: watch.unjudged } : { judged: true, path: watch.path },
    }),
  };
}

/**
 * Inputs generated from the OpenAPI document, valid or broken one keyword
 * at a time, each request signed with a fresh nonce (and idempotency key
 * where the document requires one), are answered as the document says:
 * never a server error; an invalid input 400 or 422 in the envelope, a 422
 * naming the broken field; an invalid write moves no money and emits no
 * webhook event (every event the agency's endpoint gets names a booking a
 * write the service accepted gave); a valid input accepted, or refused only
 * as the document lists for its operation; a method its path does not
 * document 405.
 */
export const openapiInputs: PropertyDef = {
  name: 'openapi-inputs',
  title: 'Inputs generated from the OpenAPI document, valid or broken one keyword at a time, are answered as the document says',
  clause:
    'SPEC §7 / REF §4, §5, §9: a body that fails validation is 422 VALIDATION_FAILED with details.fields, never a server error; a failed booking charges nothing and emits no event; a method no route has is 405',
  needs: [],
  defaultNumRuns: 1,
  build: (env) => buildInputs(env),
  // In real time it runs on the main agency before the fill, with the writes its bucket has free (those it leaves, the fill takes): no window is waited for.
  async realTime({ envs: [env], numRuns }) {
    const built = await buildInputs(env!, true);
    const why = built.left ? `${built.free} writes free: ${built.left} write cases left out of each run` : 'every case in each run';
    return { built, fcRuns: numRuns, runs: numRuns, why };
  },
};
