import type { Profile } from '../../profile/index.js';
import { ANY_WITH_PRODUCT, STEP_ACTIONS, type Expectation, type Scenario, type Step, type StepAction } from '../types.js';
import { referencedNames } from '../values.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['unique', 'profile']);

/** Parameters each action accepts, and those it requires. */
const PARAMS: Record<StepAction, { allowed: string[]; required: string[] }> = {
  account: { allowed: [], required: [] },
  balance: { allowed: [], required: [] },
  statement: { allowed: [], required: [] },
  rates: { allowed: [], required: [] },
  search: { allowed: ['product', 'criteria'], required: [] },
  book: { allowed: ['product', 'quote', 'idempotency_key', 'client_reference', 'body'], required: ['quote'] },
  cancel: { allowed: ['product', 'booking', 'idempotency_key', 'body'], required: ['booking'] },
  get_booking: { allowed: ['product', 'booking'], required: ['booking'] },
  wait: { allowed: ['ms', 's'], required: [] },
  rest: { allowed: ['buckets'], required: ['buckets'] },
  repeat: { allowed: ['count', 'concurrent', 'steps'], required: ['count', 'steps'] },
  set: { allowed: [], required: [] },
};

const PRODUCT_ACTIONS = new Set<StepAction>(['search', 'book', 'cancel', 'get_booking']);
const STEP_KEYS = new Set(['name', 'save', 'as', 'expect', 'skip_if']);
const EXPECT_KEYS = new Set(['status', 'code', 'fields', 'replayed', 'balance_delta', 'identical_to']);
const TOP_KEYS = new Set(['name', 'description', 'clause', 'agency', 'product', 'steps']);

/** The value names a step may use before it runs: interpolation names that need no saving. */
function builtIn(name: string): boolean {
  return name === 'unique' || name.startsWith('profile.');
}

class Walker {
  readonly problems: string[] = [];
  readonly defined = new Set<string>();
  readonly kept = new Set<string>();

  constructor(
    private readonly profile: Profile,
    private readonly scenarioProduct: string | undefined,
  ) {}

  problem(at: string, message: string): void {
    this.problems.push(`${at}: ${message}`);
  }

  refs(at: string, value: unknown, extra: ReadonlySet<string> = new Set()): void {
    for (const name of referencedNames(value)) {
      if (!builtIn(name) && !this.defined.has(name) && !extra.has(name)) this.problem(at, `{{${name}}} is used before any step saves it`);
    }
  }

  product(at: string, value: unknown): void {
    if (value === undefined) return;
    if (typeof value !== 'string' || !this.profile.products.includes(value)) {
      this.problem(at, `unknown product ${JSON.stringify(value)} (the profile's products: ${this.profile.products.join(', ')})`);
    }
  }

  expectation(at: string, raw: unknown, own: ReadonlySet<string>): Expectation | undefined {
    if (!isObj(raw)) {
      this.problem(at, 'must be a mapping');
      return undefined;
    }
    for (const k of Object.keys(raw))
      if (!EXPECT_KEYS.has(k)) this.problem(`${at}.${k}`, `unknown expectation (expected one of ${[...EXPECT_KEYS].join(', ')})`);
    const e = raw as Expectation;
    const st = e.status;
    const okStatus = (s: unknown): boolean => Number.isInteger(s) && (s as number) >= 100 && (s as number) <= 599;
    if (st !== undefined && !(okStatus(st) || (Array.isArray(st) && st.length > 0 && st.every(okStatus)))) {
      this.problem(`${at}.status`, `must be an HTTP status (100 to 599) or a list of them, got ${JSON.stringify(st)}`);
    }
    if (e.code !== undefined && (typeof e.code !== 'string' || !Object.hasOwn(this.profile.errors, e.code))) {
      this.problem(`${at}.code`, `unknown error key ${JSON.stringify(e.code)} (profile error keys: ${Object.keys(this.profile.errors).join(', ')})`);
    }
    if (e.fields !== undefined) {
      if (!isObj(e.fields)) this.problem(`${at}.fields`, 'must be a mapping of path → value or comparison');
      else this.refs(`${at}.fields`, e.fields, own);
    }
    if (e.replayed !== undefined && typeof e.replayed !== 'boolean') this.problem(`${at}.replayed`, `must be true or false, got ${JSON.stringify(e.replayed)}`);
    if (e.balance_delta !== undefined) {
      if (typeof e.balance_delta !== 'string' && !Number.isInteger(e.balance_delta)) {
        this.problem(`${at}.balance_delta`, `must be an integer or an expression such as "-{{price}}", got ${JSON.stringify(e.balance_delta)}`);
      } else this.refs(`${at}.balance_delta`, e.balance_delta, own);
    }
    if (e.identical_to !== undefined && (typeof e.identical_to !== 'string' || !this.kept.has(e.identical_to))) {
      this.problem(`${at}.identical_to`, `names no response kept earlier with "as:" (got ${JSON.stringify(e.identical_to)})`);
    }
    return e;
  }

  steps(at: string, raw: unknown): Step[] {
    if (!Array.isArray(raw) || raw.length === 0) {
      this.problem(at, 'must be a non-empty list of steps');
      return [];
    }
    return raw.flatMap((s, i) => {
      const step = this.step(`${at}[${i}]`, s);
      return step ? [step] : [];
    });
  }

  step(at: string, raw: unknown): Step | undefined {
    if (!isObj(raw)) {
      this.problem(at, `must be a mapping with one action (${STEP_ACTIONS.join(', ')}), got ${JSON.stringify(raw)}`);
      return undefined;
    }
    const actions = Object.keys(raw).filter((k) => (STEP_ACTIONS as readonly string[]).includes(k)) as StepAction[];
    const unknown = Object.keys(raw).filter((k) => !STEP_KEYS.has(k) && !(STEP_ACTIONS as readonly string[]).includes(k));
    for (const k of unknown) this.problem(`${at}.${k}`, `unknown action or key (actions: ${STEP_ACTIONS.join(', ')}; keys: ${[...STEP_KEYS].join(', ')})`);
    if (actions.length !== 1) {
      if (unknown.length === 0)
        this.problem(
          at,
          actions.length === 0
            ? `has no action (one of ${STEP_ACTIONS.join(', ')})`
            : `has ${actions.length} actions (${actions.join(', ')}); a step takes exactly one`,
        );
      return undefined;
    }
    const action = actions[0]!;
    const here = `${at}.${action}`;
    let params: Obj = {};
    const given = raw[action];
    if (action === 'wait' && (typeof given === 'number' || typeof given === 'string')) params = { ms: given };
    else if (action === 'rest' && (typeof given === 'string' || Array.isArray(given))) params = { buckets: given };
    else if (given === null || given === undefined) params = {};
    else if (isObj(given)) params = given;
    else this.problem(here, `parameters must be a mapping, got ${JSON.stringify(given)}`);

    if (action !== 'set') {
      const spec = PARAMS[action];
      for (const k of Object.keys(params))
        if (!spec.allowed.includes(k))
          this.problem(`${here}.${k}`, `unknown parameter${spec.allowed.length ? ` (expected ${spec.allowed.join(', ')})` : ' (this action takes none)'}`);
      for (const k of spec.required) if (params[k] === undefined) this.problem(here, `needs "${k}"`);
    }
    if (PRODUCT_ACTIONS.has(action)) {
      this.product(`${here}.product`, params.product);
      if (params.product === undefined && this.scenarioProduct === undefined) this.problem(here, 'names no product, and the scenario has none');
      if (action === 'search' && params.criteria !== undefined && !isObj(params.criteria)) this.problem(`${here}.criteria`, 'must be a mapping');
      for (const k of ['quote', 'booking', 'client_reference', 'body'] as const) {
        if (params[k] !== undefined && typeof params[k] !== 'string') this.problem(`${here}.${k}`, `must be a string, got ${JSON.stringify(params[k])}`);
      }
      if (params.idempotency_key !== undefined && params.idempotency_key !== null && typeof params.idempotency_key !== 'string') {
        this.problem(`${here}.idempotency_key`, `must be a string, or null to send none, got ${JSON.stringify(params.idempotency_key)}`);
      }
    }
    if (action === 'wait') {
      const has = ['ms', 's'].filter((k) => params[k] !== undefined);
      if (has.length !== 1) this.problem(here, 'needs exactly one of "ms" or "s"');
      for (const k of has) {
        const v = params[k];
        if (!(typeof v === 'number' && v >= 0) && !(typeof v === 'string' && referencedNames(v).length > 0))
          this.problem(`${here}.${k}`, `must be a number ≥ 0 or an interpolation, got ${JSON.stringify(v)}`);
      }
    }
    if (action === 'rest' && params.buckets !== undefined) {
      const list = typeof params.buckets === 'string' ? [params.buckets] : params.buckets;
      if (!Array.isArray(list) || list.length === 0 || !list.every((b) => b === 'read' || b === 'write')) {
        this.problem(`${here}.buckets`, `must be read, write or a list of them, got ${JSON.stringify(params.buckets)}`);
      } else params = { buckets: [...new Set(list)] };
    }
    if (action === 'set') {
      for (const k of Object.keys(params))
        if (!NAME.test(k) || RESERVED.has(k)) this.problem(`${here}.${k}`, 'is not a valid value name (letters, digits, _; not unique or profile)');
    }
    if (action !== 'repeat') this.refs(here, params);

    let inner: Step[] | undefined;
    if (action === 'repeat') {
      const count = params.count;
      if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1 && (count as number) <= 1000))
        this.problem(`${here}.count`, `must be an integer from 1 to 1000, got ${JSON.stringify(count)}`);
      if (params.concurrent !== undefined && typeof params.concurrent !== 'boolean')
        this.problem(`${here}.concurrent`, `must be true or false, got ${JSON.stringify(params.concurrent)}`);
      if (params.steps !== undefined) inner = this.steps(`${here}.steps`, params.steps);
    }

    const own = new Set<string>();
    let save: Record<string, string> | undefined;
    if (raw.save !== undefined) {
      if (!isObj(raw.save)) this.problem(`${at}.save`, 'must be a mapping of name → path');
      else {
        save = {};
        for (const [name, path] of Object.entries(raw.save)) {
          if (!NAME.test(name) || RESERVED.has(name))
            this.problem(`${at}.save.${name}`, 'is not a valid value name (letters, digits, _; not unique or profile)');
          if (typeof path !== 'string' || path === '') this.problem(`${at}.save.${name}`, `must be a path in the response view, got ${JSON.stringify(path)}`);
          else save[name] = path;
          own.add(name);
        }
      }
    }
    if (action === 'set') for (const k of Object.keys(params)) own.add(k);
    if (raw.as !== undefined && (typeof raw.as !== 'string' || !NAME.test(raw.as)))
      this.problem(`${at}.as`, `must be a name (letters, digits, _), got ${JSON.stringify(raw.as)}`);
    if (raw.name !== undefined && typeof raw.name !== 'string') this.problem(`${at}.name`, 'must be a string');

    const expect = raw.expect === undefined ? undefined : this.expectation(`${at}.expect`, raw.expect, own);
    const skipIf = raw.skip_if === undefined ? undefined : this.expectation(`${at}.skip_if`, raw.skip_if, own);
    if (action === 'repeat' && expect) {
      const extra = Object.keys(expect).filter((k) => k !== 'balance_delta');
      if (extra.length) this.problem(`${at}.expect`, `a repeat can only expect balance_delta (put ${extra.join(', ')} on its inner steps)`);
    }
    for (const n of own) this.defined.add(n);
    if (typeof raw.as === 'string') this.kept.add(raw.as);

    const step: Step = { action, params, at };
    if (typeof raw.name === 'string') step.name = raw.name;
    if (save) step.save = save;
    if (typeof raw.as === 'string') step.as = raw.as;
    if (expect) step.expect = expect;
    if (skipIf) step.skip_if = skipIf;
    if (inner) step.steps = inner;
    return step;
  }
}

/** Validates a parsed scenario document: the scenario, or every problem as `<path>: <message>`. */
export function validateScenario(doc: unknown, file: string, profile: Profile): { scenario?: Scenario; problems: string[] } {
  if (!isObj(doc)) return { problems: [`(top): must be a mapping with name, description, agency, product, steps`] };
  const problems: string[] = [];
  for (const k of Object.keys(doc)) if (!TOP_KEYS.has(k)) problems.push(`${k}: unknown key (expected ${[...TOP_KEYS].join(', ')})`);
  const base = file.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/i, '');
  const name = doc.name ?? base;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(name)) problems.push(`name: must be letters, digits, ".", "_" or "-", got ${JSON.stringify(name)}`);
  if (doc.description !== undefined && typeof doc.description !== 'string') problems.push('description: must be a string');
  if (doc.clause !== undefined && typeof doc.clause !== 'string') problems.push('clause: must be a string');
  const agency = doc.agency ?? 0;
  if (!(Number.isInteger(agency) && (agency as number) >= 0) && !(typeof agency === 'string' && agency !== '')) {
    problems.push(`agency: must be an index (0, 1, …), an agency id, or "${ANY_WITH_PRODUCT}", got ${JSON.stringify(agency)}`);
  }
  const product = doc.product;
  const walker = new Walker(profile, typeof product === 'string' ? product : undefined);
  walker.product('product', product);
  if (agency === ANY_WITH_PRODUCT && product === undefined) problems.push(`agency: "${ANY_WITH_PRODUCT}" needs a scenario "product"`);
  const steps = walker.steps('steps', doc.steps);
  problems.push(...walker.problems);
  if (problems.length > 0) return { problems };
  const scenario: Scenario = {
    name: name as string,
    description: (doc.description as string | undefined) ?? '',
    clause: (doc.clause as string | undefined) ?? 'SPEC §1, §4: an end-to-end journey through the service',
    agency: agency as number | string,
    steps,
    file,
  };
  if (typeof product === 'string') scenario.product = product;
  return { scenario, problems };
}
