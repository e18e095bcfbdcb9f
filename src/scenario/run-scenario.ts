import { performance } from 'node:perf_hooks';
import { getField } from '../api/fields.js';
import type { ApiResponse, TargetApi } from '../api/types.js';
import { checkContext } from '../checks/check-context.js';
import type { SuitePartContext } from '../checks/suite-part.js';
import type { CheckContext } from '../checks/types.js';
import { waitOutRefusals } from '../checks/wait-out-refusals.js';
import { isHarnessError } from '../errors/harness-error.js';
import type { CaseResult, Verdict } from '../results/model.js';
import { accountView, balanceView, baseView, bookingView, cancelView, searchView, statementView, type View } from './_internal/views.js';
import { evalIntExpression, interpolate, matchValue, readPath, UnknownValueError } from './values.js';
import { overMaxWait, refusedWaitOf } from '../clock/max-wait.js';
import { AWAY_MIN_MS, chooseAgency, longWaitMs, scenarioOverMaxWait, type AgencyView } from './scenario-plan.js';
import { ANY_WITH_PRODUCT, type Expectation, type Scenario, type Step } from './types.js';

/** A step's expectation failed: the scenario fails, naming the step. */
class StepFailed extends Error {
  constructor(
    readonly at: string,
    message: string,
    readonly evidence: string[],
  ) {
    super(message);
  }
}

/** The target cannot provide a precondition (skip_if matched): the scenario is skipped. */
class ScenarioSkipped extends Error {}

interface Outcome {
  res?: ApiResponse;
  view?: View;
  evidence: string[];
}

/** Names a step for messages: `steps[3] book "first booking"` (plus the repeat iteration). */
function label(step: Step, iteration?: string): string {
  return `${step.at}${iteration ?? ''} (${step.action}${step.name ? ` "${step.name}"` : ''})`;
}

class ScenarioRun {
  readonly values = new Map<string, unknown>();
  readonly kept = new Map<string, ApiResponse>();
  readonly evidence: string[] = [];
  /** Concurrent repeats it is inside of now: a wait there is one branch's, the others may be sending. */
  private concurrent = 0;

  constructor(
    private readonly ctx: CheckContext & Partial<Pick<SuitePartContext, 'waitBeside'>>,
    private readonly api: TargetApi,
    private readonly scenario: Scenario,
    /** Index of the agency it runs as, in `ctx.agencies`. */
    private readonly agency: number,
  ) {}

  private resolve = (name: string): unknown => {
    if (name === 'unique') return this.ctx.unique('scn');
    if (name.startsWith('profile.')) {
      const v = getField(this.ctx.profile, name.slice('profile.'.length));
      // A profile without the value (e.g. no failure trigger) cannot run the scenario: nothing to judge.
      if (v === undefined || v === null) throw new ScenarioSkipped(`the profile gives no ${name.slice('profile.'.length)}, which this scenario needs`);
      return v;
    }
    if (!this.values.has(name)) throw new UnknownValueError(`{{${name}}} was never saved (did an earlier step fail to save it?)`);
    return this.values.get(name);
  };

  private value<T = unknown>(v: unknown): T {
    return interpolate(v, this.resolve) as T;
  }

  async steps(steps: Step[], iteration?: string): Promise<void> {
    for (const step of steps) await this.step(step, iteration);
  }

  private async balance(at: string): Promise<{ amount: number; id: string }> {
    const res = await this.api.balance({ label: this.ctx.label(`${at} balance`) });
    if (res.amount === undefined) throw new StepFailed(at, `the wallet balance is unreadable (status ${res.status})`, [res.exchange.id]);
    return { amount: res.amount, id: res.exchange.id };
  }

  async step(step: Step, iteration?: string): Promise<void> {
    // A scenario is not about the rate limit: a refusal it does not expect is waited out, as an agency's client would.
    if (step.action !== 'repeat' && !this.expectsRateLimited(step))
      return waitOutRefusals(this.ctx, () => this.stepOnce(step, iteration), `scenario ${this.scenario.name}: `);
    return this.stepOnce(step, iteration);
  }

  /** True when the step's expectation (or skip_if) names the rate-limited answer: then it must see it. */
  private expectsRateLimited(step: Step): boolean {
    const refused = this.ctx.profile.errors.rate_limited;
    return [step.expect, step.skip_if].some(
      (e) => e !== undefined && (e.code === 'rate_limited' || (Array.isArray(e.status) ? e.status.includes(refused.status) : e.status === refused.status)),
    );
  }

  private async stepOnce(step: Step, iteration?: string): Promise<void> {
    const at = label(step, iteration);
    try {
      const before = step.expect?.balance_delta !== undefined ? await this.balance(at) : undefined;
      const out = await this.act(step, at, iteration);
      this.evidence.push(...out.evidence);
      if (step.skip_if && out.res && out.view && this.judge(step.skip_if, out.res, out.view).length === 0) {
        throw new ScenarioSkipped(
          `${at} answered ${out.res.status}${out.view.error_code ? ` ${String(out.view.error_code)}` : ''}, a precondition the target cannot meet here (skip_if)`,
        );
      }
      // A value that cannot be saved is reported after the expectations, which usually say why.
      const unsaved: string[] = [];
      if (out.view) {
        for (const [name, path] of Object.entries(step.save ?? {})) {
          const v = readPath(out.view, this.value<string>(path));
          if (v === undefined) unsaved.push(`cannot save "${name}": nothing at "${path}" (status ${String(out.view.status)})`);
          else this.values.set(name, v);
        }
      }
      if (step.as && out.res) this.kept.set(step.as, out.res);
      const problems = step.expect && out.res && out.view ? this.judge(step.expect, out.res, out.view) : [];
      if (before && step.expect?.balance_delta !== undefined) {
        const after = await this.balance(at);
        const exprText = String(this.value(String(step.expect.balance_delta)));
        const want = evalIntExpression(exprText);
        if (want === undefined) problems.push(`balance_delta "${exprText}" is not an integer expression`);
        else if (after.amount - before.amount !== want) problems.push(`balance changed by ${after.amount - before.amount}, expected ${want}`);
        out.evidence.push(before.id, after.id);
      }
      problems.push(...unsaved);
      if (problems.length) throw new StepFailed(at, problems.join('; '), out.evidence);
    } catch (err) {
      if (err instanceof UnknownValueError) throw new StepFailed(at, err.message, []);
      throw err;
    }
  }

  /** Every way the response differs from the expectation (empty: it matches). */
  private judge(e: Expectation, res: ApiResponse, view: View): string[] {
    const problems: string[] = [];
    const p = this.ctx.profile;
    if (e.code !== undefined) {
      const def = p.errors[e.code as keyof typeof p.errors];
      const code = this.api.errorCode(res);
      if (res.status !== def.status || code !== def.code)
        problems.push(`expected ${def.status} ${def.code} (${e.code}), got ${res.status}${code ? ` ${code}` : ''}`);
    }
    if (e.status !== undefined) {
      const allowed = Array.isArray(e.status) ? e.status : [e.status];
      if (!allowed.includes(res.status))
        problems.push(`expected status ${allowed.join(' or ')}, got ${res.status}${view.error_code ? ` ${String(view.error_code)}` : ''}`);
    }
    if (e.replayed !== undefined) {
      const replayed = res.headers[p.headers.idempotent_replayed] === p.values.replayed_true;
      if (replayed !== e.replayed)
        problems.push(
          e.replayed
            ? `expected a replay (${p.headers.idempotent_replayed}: ${p.values.replayed_true}), got an original response`
            : `expected an original response, got a replay`,
        );
    }
    if (e.identical_to !== undefined) {
      const first = this.kept.get(e.identical_to);
      if (!first) problems.push(`no response kept as "${e.identical_to}" (the step that keeps it did not run)`);
      else if (first.status !== res.status || !first.bytes.equals(res.bytes)) {
        problems.push(
          `expected the status and body bytes of "${e.identical_to}" (${first.status}, ${first.bytes.length} bytes), got ${res.status}, ${res.bytes.length} bytes${first.status === res.status ? ' that differ' : ''}`,
        );
      }
    }
    for (const [path, matcher] of Object.entries(e.fields ?? {})) {
      const why = matchValue(readPath(view, this.value<string>(path)), this.value(matcher));
      if (why) problems.push(`${path}: ${why}`);
    }
    return problems;
  }

  private product(step: Step): string {
    return this.value<string | undefined>(step.params.product) ?? this.scenario.product!;
  }

  private async act(step: Step, at: string, iteration: string | undefined): Promise<Outcome> {
    const api = this.api;
    const p = this.ctx.profile;
    const lbl = { label: this.ctx.label(at) };
    const one = (res: ApiResponse, view: View): Outcome => ({ res, view, evidence: [res.exchange.id] });
    const par = step.params;
    switch (step.action) {
      case 'account': {
        const { open, closed, response } = await api.openProducts(lbl);
        return one(response, accountView(api, response, open, closed, p));
      }
      case 'search': {
        const product = this.product(step);
        const over = par.criteria ? this.value<Record<string, unknown>>(par.criteria) : {};
        const res = await api.search(product, { ...(p.search_criteria[product] ?? {}), ...over }, lbl);
        return one(res, searchView(api, res));
      }
      case 'book': {
        const key =
          par.idempotency_key === null ? undefined : par.idempotency_key === undefined ? this.ctx.unique('scn-key') : this.value<string>(par.idempotency_key);
        const opts: Parameters<TargetApi['book']>[3] = { ...lbl };
        if (par.client_reference !== undefined) opts.clientReference = String(this.value(par.client_reference));
        if (par.body !== undefined) opts.body = String(this.value(par.body));
        const res = await api.book(this.product(step), String(this.value(par.quote)), key === undefined ? undefined : String(key), opts);
        return one(res, bookingView(api, res, p));
      }
      case 'cancel': {
        const key =
          par.idempotency_key === null ? undefined : par.idempotency_key === undefined ? this.ctx.unique('scn-key') : this.value<string>(par.idempotency_key);
        const opts: Parameters<TargetApi['cancel']>[3] = { ...lbl };
        if (par.body !== undefined) opts.body = String(this.value(par.body));
        const res = await api.cancel(this.product(step), String(this.value(par.booking)), key === undefined ? undefined : String(key), opts);
        return one(res, cancelView(api, res, p));
      }
      case 'get_booking': {
        const res = await api.getBooking(this.product(step), String(this.value(par.booking)), lbl);
        return one(res, bookingView(api, res, p));
      }
      case 'balance': {
        const res = await api.balance(lbl);
        return one(res, balanceView(api, res, p));
      }
      case 'statement': {
        const { entries, responses } = await api.statement(lbl);
        const last = responses[responses.length - 1]!;
        return { res: last, view: statementView(api, last, entries), evidence: responses.map((r) => r.exchange.id) };
      }
      case 'rates': {
        const res = await api.rates(lbl);
        return one(res, baseView(api, res));
      }
      case 'wait': {
        const raw = par.ms !== undefined ? this.value(par.ms) : this.value(par.s);
        const n = Number(raw);
        if (!Number.isFinite(n) || n < 0) throw new StepFailed(at, `wait needs a duration ≥ 0, got ${JSON.stringify(raw)}`, []);
        const ms = par.ms !== undefined ? n : n * 1000;
        // The run's one rule for long waits in real time: a wait over --max-wait is not made, the scenario is a SKIP.
        const over = overMaxWait(this.ctx.clock, ms, this.ctx.maxWaitMs);
        if (over) throw new ScenarioSkipped(`${at} ${over}`);
        // In a real-time suite run, a long wait made alone may run long: the suite's properties run meanwhile, and it ends once they have.
        if (this.concurrent === 0 && this.ctx.waitBeside && ms >= longWaitMs(this.ctx.profile, this.ctx.learned?.quoteLifetimeS)) {
          await this.ctx.waitBeside(ms);
          return { evidence: [] };
        }
        // Another wait made alone holds nothing of the run's lease: other checks use the agencies meanwhile.
        const away = this.concurrent === 0 && ms >= AWAY_MIN_MS ? this.ctx.narrowLease : undefined;
        away?.([], this.ctx.clock.now() + ms);
        await this.ctx.clock.wait(ms, 'a wait step');
        if (away) await this.ctx.widenLease?.();
        return { evidence: [] };
      }
      case 'rest': {
        const until = restedAt(this.ctx, par.buckets as BucketKind[], this.agency);
        const over = overMaxWait(this.ctx.clock, until - this.ctx.clock.now(), this.ctx.maxWaitMs);
        if (over) throw new ScenarioSkipped(`${at} ${over}`);
        await this.ctx.clock.waitUntil(until, 'its rate-limit buckets to rest');
        return { evidence: [] };
      }
      case 'set': {
        for (const [k, v] of Object.entries(par)) this.values.set(k, this.value(v));
        return { evidence: [] };
      }
      case 'repeat': {
        const count = par.count as number;
        const inner = step.steps ?? [];
        const it = (i: number): string => `${iteration ?? ''} iteration ${i + 1}/${count}`;
        if (par.concurrent === true) {
          this.concurrent += 1;
          const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => this.steps(inner, it(i)))).finally(() => {
            this.concurrent -= 1;
          });
          const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
          if (failed) throw failed.reason;
        } else {
          for (let i = 0; i < count; i += 1) await this.steps(inner, it(i));
        }
        return { evidence: [] };
      }
    }
  }
}

type BucketKind = 'read' | 'write';

/**
 * The target instant from which `buckets` of agency `agency` are empty: one
 * window after the last request the run sent into them (now when none was
 * sent since the target was reset). Without the runner's count, a window
 * from now: a bucket may be full.
 */
function restedAt(ctx: CheckContext, buckets: readonly BucketKind[], agency: number): number {
  const now = ctx.clock.now();
  const windowMs = ctx.profile.limits.window_s * 1000;
  if (!ctx.lastRequestAt) return now + windowMs;
  let at = now;
  for (const kind of buckets) {
    const last = ctx.lastRequestAt(kind, agency);
    // The request was admitted before it was recorded: a window after the record it has left the window.
    if (last !== undefined) at = Math.max(at, last + windowMs);
  }
  return at;
}

/**
 * Picks the agency index a scenario runs as (see {@link chooseAgency}), or
 * says why it cannot run, reading products and balances live; only the
 * agencies in `usable` are read or chosen (all when absent).
 */
async function pickAgency(ctx: CheckContext, s: Scenario, usable?: ReadonlySet<number>): Promise<{ index: number } | { skip: string }> {
  const named = s.agency === ANY_WITH_PRODUCT ? undefined : typeof s.agency === 'number' ? s.agency : ctx.agencies.findIndex((a) => a.id === s.agency);
  const indices = ctx.agencies.map((_, i) => i).filter((i) => (usable === undefined || usable.has(i)) && (named === undefined || i === named));
  const candidates: AgencyView[] = [];
  for (const index of indices) {
    const api = ctx.api(index);
    const open = s.product === undefined ? [] : (await api.openProducts({ label: ctx.label(`products of agency #${index}`) })).open;
    // A balance only matters where the product is open, and only to pick the largest.
    const balance =
      named === undefined && s.product !== undefined && open.includes(s.product)
        ? ((await api.balance({ label: ctx.label(`balance of agency #${index}`) })).amount ?? 0)
        : undefined;
    candidates.push({ index, id: ctx.agencies[index]!.id, open, balance });
  }
  const chosen = chooseAgency(s, candidates, ctx.agencies);
  // Every candidate's products were read: the choice is known.
  return chosen === 'unknown' ? { skip: 'the products open for the agencies could not be read' } : chosen;
}

/** Runs one scenario (as an agency among `usable`, all when absent); the result names the failing step. Never throws for a failed or skipped scenario. */
export async function runScenario(
  partCtx: CheckContext & Partial<Pick<SuitePartContext, 'waitBeside'>>,
  scenario: Scenario,
  usable?: ReadonlySet<number>,
): Promise<CaseResult> {
  const id = `scenario:${scenario.name}`;
  // The case's own context: its exchange labels start with its id, as a check's do.
  const ctx = checkContext(partCtx, id);
  const startedAt = ctx.clock.now();
  const t0 = performance.now();
  const result = (verdict: Verdict, message: string, evidence: string[], details: Record<string, unknown>): CaseResult => ({
    id,
    kind: 'scenario',
    // The description's first clause makes a short title; the whole text stays in the file.
    title: (scenario.description.split(/[.;\n]/)[0] ?? '').trim().slice(0, 90) || scenario.name,
    area: 'scenarios',
    clause: scenario.clause,
    verdict,
    message,
    evidence,
    details: { file: scenario.file, ...details },
    startedAt,
    durationMs: Math.round(performance.now() - t0),
  });
  let run: ScenarioRun | undefined;
  let agency: string | undefined;
  // A wait known before it starts that is over --max-wait in real time: skipped before it sends anything.
  const over = scenarioOverMaxWait(scenario, ctx.profile, ctx.clock, ctx.maxWaitMs);
  if (over) return result('SKIP', over, [], {});
  try {
    const picked = await pickAgency(ctx, scenario, usable);
    if ('skip' in picked) return result('SKIP', picked.skip, [], {});
    agency = ctx.agencies[picked.index]!.id;
    run = new ScenarioRun(ctx, ctx.api(picked.index), scenario, picked.index);
    ctx.log(`scenario ${scenario.name} as ${agency}`);
    await run.steps(scenario.steps);
    return result('PASS', `${scenario.steps.length} steps passed as ${agency}`, run.evidence, { agency });
  } catch (err) {
    if (err instanceof ScenarioSkipped) return result('SKIP', err.message, run?.evidence ?? [], { agency });
    const refused = refusedWaitOf(err);
    if (refused) return result('SKIP', refused.message, run?.evidence ?? [], { agency });
    if (err instanceof StepFailed) return result('FAIL', `${err.at}: ${err.message}`, err.evidence, { agency, failedStep: err.at });
    const message = isHarnessError(err) && err.code !== 'E_INTERNAL' ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    return result('ERROR', message, run?.evidence ?? [], { agency });
  }
}
