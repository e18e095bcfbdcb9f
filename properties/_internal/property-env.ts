import { getNumber } from '../../src/api/fields.js';
import type { ApiResponse, Offer, StatementEntry, TargetApi } from '../../src/api/types.js';
import { checkContext } from '../../src/checks/check-context.js';
import type { CheckContext } from '../../src/checks/types.js';
import { boundedClock } from '../../src/clock/max-wait.js';
import { RateBudget, type Bucket } from './rate-budget.js';
import { PropertyViolation, type ViolationFocus } from './violation.js';

/**
 * What a property's runs share: the target as the primary agency sees it, an
 * open product, the rate budget, and the evidence of the run under way.
 */
export class PropertyEnv {
  /** Exchange ids of the current run. */
  evidence: string[] = [];

  private constructor(
    /** The context of the case running on it (`forCase`). */
    public ctx: CheckContext,
    readonly api: TargetApi,
    readonly agency: number,
    readonly product: string,
    readonly budget: RateBudget,
  ) {}

  /** Builds the environment, or says why the property cannot run against this target. */
  static async create(ctx: CheckContext, agency = 0): Promise<PropertyEnv | { skip: string }> {
    const api = ctx.api(agency);
    const { open, response } = await api.openProducts({ label: ctx.label('open products') });
    const product = ctx.profile.products.find((p) => open.includes(p));
    if (!product) return { skip: `no product is open for ${ctx.agencies[agency]?.id ?? `agency #${agency}`} (account answered ${response.status})` };
    const f = ctx.profile.fields;
    const limits = ctx.agencies[agency]?.limits ?? {
      read: getNumber(response.json, f.account_read_limit) ?? 60,
      write: getNumber(response.json, f.account_write_limit) ?? 10,
    };
    const v = ctx.profile.values;
    // In real time a window wait over --max-wait is not made: the case is a SKIP naming the bound.
    const budget = new RateBudget(
      boundedClock(ctx.clock, ctx.maxWaitMs),
      limits,
      ctx.profile.limits.window_s * 1000,
      { read: v.bucket_read, write: v.bucket_write },
      undefined,
      (line) => ctx.log(line),
    );
    budget.observe(response, 'read');
    return new PropertyEnv(ctx, api, agency, product, budget);
  }

  /** From now on it serves case `caseId`: its exchange labels start with that id. */
  forCase(caseId: string): void {
    this.ctx = checkContext(this.ctx, caseId);
  }

  /** `text` as an exchange label of the property (after its case id, `ctx.label`). */
  label(text: string): string {
    return this.ctx.label(text);
  }

  /**
   * Learns how full the buckets are, so that the first run need not wait a
   * window: a bucket this run sent nothing to for a window is empty; else
   * one write that changes nothing (a booking without an idempotency key)
   * reads the write bucket's remaining count.
   */
  async learnBuckets(): Promise<void> {
    const windowMs = this.ctx.profile.limits.window_s * 1000;
    const idle = (kind: Bucket): boolean => {
      if (!this.ctx.lastRequestAt) return false;
      const last = this.ctx.lastRequestAt(kind, this.agency);
      return last === undefined || this.ctx.clock.now() - last >= windowMs;
    };
    if (idle('read')) this.budget.empty('read');
    if (idle('write')) this.budget.empty('write');
    else await this.measureBucket('write');
  }

  /** Writes {@link learnBuckets} sends at most: the one that reads how full the write bucket is. */
  static readonly LEARNING_WRITES = 1;

  /** Reads how full `bucket` is (a write that changes nothing, or a balance read): its answer's remaining count updates the budget. */
  async measureBucket(bucket: Bucket): Promise<void> {
    if (bucket === 'write') await this.noOpWrite('how full is the write bucket');
    else await this.balance('how full is the read bucket');
  }

  /** A booking that changes nothing (an unknown quote, no idempotency key): it only takes a place in the write bucket. */
  async noOpWrite(label: string): Promise<ApiResponse> {
    return this.track(await this.api.book(this.product, 'qt_filler', undefined, { label: this.label(label) }), 'write');
  }

  /** Records a response as evidence of this run and counts it in the rate budget. */
  track<T extends ApiResponse>(res: T, bucket: Bucket): T {
    this.evidence.push(res.exchange.id);
    this.budget.observe(res, bucket);
    return res;
  }

  /**
   * Throws a violation with the evidence of this run. `focus.decisive` names
   * the exchanges that broke the promise and `focus.pair` a broken replay:
   * reports show those first, the run's other exchanges (setup, fills) after.
   */
  fail(message: string, focus: ViolationFocus = {}): never {
    throw new PropertyViolation(message, [...this.evidence], focus.pair, focus.decisive);
  }

  /** The wallet balance now, read under label `what`; a balance the target does not give is a violation. */
  async balance(what: string): Promise<number> {
    return (await this.balanceRead(what)).amount;
  }

  /** The wallet balance now and the exchange that read it (to name it when it decides a violation). */
  async balanceRead(what: string): Promise<{ amount: number; exchange: { id: string } }> {
    const label = this.label(what);
    const res = this.track(await this.api.balance({ label }), 'read');
    if (res.amount === undefined) this.fail(`${label}: the wallet balance is unreadable (status ${res.status})`, { decisive: [res] });
    return { amount: res.amount, exchange: res.exchange };
  }

  /** Every statement entry, newest first, read under label `what`. */
  async statement(what: string): Promise<StatementEntry[]> {
    return (await this.statementRead(what)).entries;
  }

  /** Every statement entry, newest first, and the exchanges of its pages. */
  async statementRead(what: string): Promise<{ entries: StatementEntry[]; exchanges: string[] }> {
    const label = this.label(what);
    const { entries, responses } = await this.api.statement({ label });
    for (const r of responses) this.track(r, 'read');
    const bad = responses.find((r) => r.status < 200 || r.status >= 300);
    if (bad) this.fail(`${label}: the statement answered ${this.describe(bad)}`, { decisive: [bad] });
    return { entries, exchanges: responses.map((r) => r.exchange.id) };
  }

  /** A fresh priced offer of the product, searched under label `what`. */
  async offer(what: string): Promise<Offer & { priceAmount: number }> {
    const label = this.label(what);
    const res = this.track(await this.api.search(this.product, undefined, { label }), 'read');
    const offer = res.offers.find((o): o is Offer & { priceAmount: number } => o.priceAmount !== undefined);
    if (!offer) this.fail(`${label}: the search answered ${res.status} without a priced offer`, { decisive: [res] });
    return offer;
  }

  /** True when a response is the profile's error `key`. */
  is(res: ApiResponse, key: keyof CheckContext['profile']['errors']): boolean {
    const def = this.ctx.profile.errors[key];
    return res.status === def.status && this.api.errorCode(res) === def.code;
  }

  /** True when a response carries the profile's idempotent-replay header value. */
  replayed(res: ApiResponse): boolean {
    const p = this.ctx.profile;
    return res.headers[p.headers.idempotent_replayed] === p.values.replayed_true;
  }

  /** `status code` of a response, for messages. */
  describe(res: ApiResponse): string {
    const code = this.api.errorCode(res);
    return `${res.status}${code ? ` ${code}` : ''}`;
  }

  /** A fresh unique token of this run. */
  unique(prefix: string): string {
    return this.ctx.unique(prefix);
  }
}
