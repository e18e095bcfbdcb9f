import * as fc from 'fast-check';
import type { ApiResponse, Offer } from '../src/api/types.js';
import type { PropertyEnv } from './_internal/property-env.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';

/** Idempotency keys per run (a small pool, so that keys are reused often). */
const POOL = 3;

/** What the model remembers of one booking idempotency key. */
interface KeyState {
  /** The stored first response: status and body bytes, and the exchange that carried it. */
  status: number;
  bytes: Buffer;
  exchangeId: string;
  /** Set when the first request booked. */
  bookingId?: string;
  price: number;
  cancelled: boolean;
  /** The stored response of the key's own cancellation key. */
  cancel?: StoredAnswer;
}

/** A stored first answer a replay must repeat byte for byte. */
interface StoredAnswer {
  status: number;
  bytes: Buffer;
  exchangeId: string;
}

/** The model: what the service must have done, per key, and the wallet it must show. */
interface Model {
  keys: (KeyState | undefined)[];
  balance: number;
  /** Ledger entries the statement must show, oldest first. */
  ledger: { type: 'debit' | 'refund'; amount: number; bookingId: string }[];
}

/** The real side: the target, and the keys, bodies and quotes of this run. */
interface Real {
  env: PropertyEnv;
  keys: string[];
  cancelKeys: string[];
  refs: string[];
  otherRefs: string[];
  quotes: (Offer & { priceAmount: number })[];
  /** Bookings made (booking id → cancelled), to give the money back after the run. */
  made: Map<string, boolean>;
}

type Cmd = fc.AsyncCommand<Model, Real>;

const ok = (s: number): boolean => s >= 200 && s < 300;

async function quoteFor(r: Real, k: number): Promise<Offer & { priceAmount: number }> {
  const q = r.quotes[k] ?? (await r.env.offer(`quote for k${k}`));
  r.quotes[k] = q;
  return q;
}

async function sendBook(r: Real, k: number, other: boolean, what: string): Promise<ApiResponse & { bookingId?: string; chargedAmount?: number }> {
  const q = await quoteFor(r, k);
  const res = await r.env.api.book(r.env.product, q.quoteToken, r.keys[k], { clientReference: other ? r.otherRefs[k] : r.refs[k], label: r.env.label(what) });
  return r.env.track(res, 'write');
}

/** Judges the original (executed) answer to the first booking with key k, and updates the model. */
function judgeFirst(m: Model, r: Real, k: number, res: ApiResponse & { bookingId?: string; chargedAmount?: number }, what: string): void {
  const env: PropertyEnv = r.env;
  const price = r.quotes[k]!.priceAmount;
  if (env.replayed(res)) env.fail(`${what}: the first request with key k${k} was answered as a replay`, { decisive: [res] });
  if (m.balance >= price) {
    if (!ok(res.status) || res.bookingId === undefined) env.fail(`${what}: expected a booking, got ${env.describe(res)}`, { decisive: [res] });
    if (res.chargedAmount !== price) env.fail(`${what}: booked at ${String(res.chargedAmount)}, the quote said ${price}`, { decisive: [res] });
    m.keys[k] = { status: res.status, bytes: res.bytes, exchangeId: res.exchange.id, bookingId: res.bookingId, price, cancelled: false };
    m.balance -= price;
    m.ledger.push({ type: 'debit', amount: price, bookingId: res.bookingId });
    r.made.set(res.bookingId, false);
  } else {
    if (!env.is(res, 'insufficient_funds'))
      env.fail(`${what}: the wallet (${m.balance}) cannot pay ${price}; expected insufficient_funds, got ${env.describe(res)}`, { decisive: [res] });
    m.keys[k] = { status: res.status, bytes: res.bytes, exchangeId: res.exchange.id, price, cancelled: false };
  }
}

/** A replay must answer the stored status and bytes, marked as a replay; a broken one names the original and the replay, so reports show that pair first. */
function judgeReplay(r: Real, stored: StoredAnswer, res: ApiResponse, what: string): void {
  const env: PropertyEnv = r.env;
  if (res.status !== stored.status || !res.bytes.equals(stored.bytes)) {
    env.fail(
      `${what}: expected the stored response replayed (${stored.status}, ${stored.bytes.length} bytes, ${stored.exchangeId}), got ${env.describe(res)} with ${res.bytes.length} bytes${res.status === stored.status ? ' that differ' : ''} (${res.exchange.id})`,
      { pair: { original: stored.exchangeId, replay: res.exchange.id } },
    );
  }
  if (!env.replayed(res))
    env.fail(`${what}: the replay lacks ${env.ctx.profile.headers.idempotent_replayed}: ${env.ctx.profile.values.replayed_true}`, { decisive: [res] });
}

/** After every command: the wallet shows exactly the model's balance, and booked keys read back in the model's state. */
async function judgeState(m: Model, r: Real, what: string, k?: number): Promise<void> {
  const env: PropertyEnv = r.env;
  const ks = k === undefined ? undefined : m.keys[k];
  // Two reads after the command has been answered: sent together, one round trip.
  const [balance, booked] = await Promise.all([
    env.balanceRead(`${what}: balance`),
    ks?.bookingId ? env.api.getBooking(env.product, ks.bookingId, { label: env.label(`${what}: read booking`) }) : undefined,
  ]);
  if (balance.amount !== m.balance)
    env.fail(`${what}: the wallet shows ${balance.amount}, the model ${m.balance} (a difference of ${balance.amount - m.balance})`, { decisive: [balance] });
  if (ks?.bookingId && booked) {
    const res = env.track(booked, 'read');
    const v = env.ctx.profile.values;
    const want = ks.cancelled ? v.booking_cancelled : v.booking_confirmed;
    const got = (res.json as Record<string, unknown> | undefined) && readStatus(res, env);
    if (got !== want) env.fail(`${what}: booking ${ks.bookingId} reads ${String(got)} (${res.status}), the model says ${want}`, { decisive: [res] });
  }
}

function readStatus(res: ApiResponse, env: PropertyEnv): unknown {
  let cur: unknown = res.json;
  for (const s of env.ctx.profile.fields.booking_status.split('.'))
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[s] : undefined;
  return cur;
}

class Book implements Cmd {
  constructor(readonly k: number) {}
  check = (m: Readonly<Model>): boolean => m.keys[this.k] === undefined;
  async run(m: Model, r: Real): Promise<void> {
    const res = await sendBook(r, this.k, false, this.toString());
    judgeFirst(m, r, this.k, res, this.toString());
    await judgeState(m, r, this.toString(), this.k);
  }
  toString = (): string => `book[k${this.k}]`;
}

class Replay implements Cmd {
  constructor(
    readonly k: number,
    readonly other: boolean,
  ) {}
  check = (m: Readonly<Model>): boolean => m.keys[this.k] !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const res = await sendBook(r, this.k, this.other, this.toString());
    if (this.other) {
      if (!r.env.is(res, 'idempotency_key_reused'))
        r.env.fail(`${this.toString()}: the same key with another body must be refused as idempotency_key_reused, got ${r.env.describe(res)}`, {
          decisive: [res],
        });
    } else judgeReplay(r, m.keys[this.k]!, res, this.toString());
    await judgeState(m, r, this.toString(), this.k);
  }
  toString = (): string => `replay[k${this.k}${this.other ? ',otherBody' : ''}]`;
}

/**
 * The concurrent variant: n identical requests at once. Sound for any
 * interleaving: exactly one is executed (the original answer), every other is
 * either a byte-identical replay of it or refused as still in use.
 */
class Burst implements Cmd {
  constructor(
    readonly k: number,
    readonly n: number,
  ) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const env: PropertyEnv = r.env;
    await quoteFor(r, this.k);
    const all = await Promise.all(Array.from({ length: this.n }, () => sendBook(r, this.k, false, this.toString())));
    const stored = m.keys[this.k];
    if (stored) {
      for (const res of all) judgeReplay(r, stored, res, this.toString());
    } else {
      const answered = all.filter((res) => !env.is(res, 'idempotency_key_in_use'));
      const originals = answered.filter((res) => !env.replayed(res));
      if (originals.length !== 1)
        env.fail(
          `${this.toString()}: ${originals.length} of ${this.n} concurrent requests were executed (answered without the replay header: ${originals.map((o) => env.describe(o)).join(', ') || 'none'}); exactly one may be`,
          { decisive: originals.length > 0 ? originals : all },
        );
      const first = originals[0]!;
      judgeFirst(m, r, this.k, first, this.toString());
      for (const res of answered) if (res !== first) judgeReplay(r, m.keys[this.k]!, res, this.toString());
    }
    await judgeState(m, r, this.toString(), this.k);
  }
  toString = (): string => `burst[k${this.k}×${this.n}]`;
}

class Cancel implements Cmd {
  constructor(
    readonly k: number,
    readonly fresh: boolean,
  ) {}
  check = (m: Readonly<Model>): boolean => m.keys[this.k]?.bookingId !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const env: PropertyEnv = r.env;
    const ks = m.keys[this.k]!;
    const key = this.fresh ? env.unique('prop-cancel') : r.cancelKeys[this.k]!;
    const res = env.track(await env.api.cancel(env.product, ks.bookingId!, key, { label: env.label(this.toString()) }), 'write');
    if (!this.fresh && ks.cancel) judgeReplay(r, ks.cancel, res, this.toString());
    else {
      if (env.replayed(res)) env.fail(`${this.toString()}: a first cancellation with its key was answered as a replay`, { decisive: [res] });
      if (ks.cancelled) {
        if (!env.is(res, 'booking_already_cancelled'))
          env.fail(`${this.toString()}: the booking is already cancelled; expected booking_already_cancelled, got ${env.describe(res)}`, {
            decisive: [res],
          });
      } else {
        if (!ok(res.status)) env.fail(`${this.toString()}: expected the cancellation, got ${env.describe(res)}`, { decisive: [res] });
        if (res.refundAmount !== ks.price)
          env.fail(`${this.toString()}: refunded ${String(res.refundAmount)}, the booking cost ${ks.price}`, { decisive: [res] });
        ks.cancelled = true;
        m.balance += ks.price;
        m.ledger.push({ type: 'refund', amount: ks.price, bookingId: ks.bookingId! });
        r.made.set(ks.bookingId!, true);
      }
      if (!this.fresh) ks.cancel = { status: res.status, bytes: res.bytes, exchangeId: res.exchange.id };
    }
    await judgeState(m, r, this.toString(), this.k);
  }
  toString = (): string => `cancel[k${this.k}${this.fresh ? ',newKey' : ''}]`;
}

/** The statement's entries since the run began must be the model's ledger, in order. */
async function judgeStatement(m: Model, r: Real, before: Set<string | undefined>): Promise<void> {
  const env: PropertyEnv = r.env;
  const v = env.ctx.profile.values;
  const after = await env.statementRead('statement after the run');
  const fresh = after.entries.filter((e) => !before.has(e.id)).reverse();
  const show = (xs: { type?: string | undefined; amount?: number | undefined; bookingId?: string | undefined }[]): string =>
    xs.map((e) => `${e.type} ${e.amount} ${e.bookingId}`).join(', ') || 'none';
  const want = m.ledger.map((e) => ({ type: e.type === 'debit' ? v.entry_debit : v.entry_refund, amount: e.amount, bookingId: e.bookingId }));
  const same =
    fresh.length === want.length && fresh.every((e, i) => e.type === want[i]!.type && e.amount === want[i]!.amount && e.bookingId === want[i]!.bookingId);
  if (!same) env.fail(`the statement shows [${show(fresh)}] since the run began, the model [${show(want)}]`, { decisive: after.exchanges });
}

/** Money back after a run: every booking still confirmed is cancelled (not judged). */
async function giveBack(r: Real): Promise<void> {
  // Independent bookings: cancelled together.
  const open = [...r.made].filter(([, cancelled]) => !cancelled);
  await Promise.all(
    open.map(([id]) =>
      r.env.api.cancel(r.env.product, id, r.env.unique('prop-cleanup'), { label: r.env.label('cleanup') }).then((res) => r.env.budget.observe(res, 'write')),
    ),
  );
}

/** Writes a command sends at most. */
function writesOf(cmd: unknown): number {
  return cmd instanceof Burst ? cmd.n : 1;
}

/** Writes a generated command list sends at most, its cleanup included. */
function writesOfRun(cmds: Iterable<Cmd>): number {
  let n = POOL;
  // fast-check hands the commands wrapped: the wrapper keeps the command as `cmd`.
  for (const c of cmds) n += writesOf((c as { cmd?: unknown }).cmd ?? c);
  return n;
}

/**
 * The property over commands of at most `maxCommands`; each run books with
 * the agency `pick` chooses for the writes and reads it needs (waiting
 * there for a window when none has room).
 */
function modelProperty(
  maxCommands: number,
  pick: (need: { write: number; read: number }) => Promise<PropertyEnv>,
  replay: { replayPath?: string } | undefined,
  /** Writes a run may send at most, its cleanup included (unbounded when absent). */
  maxWrites?: number,
): BuiltProperty<Iterable<Cmd>> {
  const key = fc.integer({ min: 0, max: POOL - 1 });
  const generated = fc.commands<Model, Real, false>(
    [
      key.map((k) => new Book(k)),
      fc.tuple(key, fc.boolean()).map(([k, o]) => new Replay(k, o)),
      fc.tuple(key, fc.integer({ min: 2, max: 4 })).map(([k, n]) => new Burst(k, n)),
      fc.tuple(key, fc.boolean()).map(([k, f]) => new Cancel(k, f)),
    ],
    // Shrunk command lists replay from seed and path only with fast-check's replay path of the commands.
    { maxCommands, ...(replay?.replayPath ? { replayPath: replay.replayPath } : {}) },
  );
  const commands = maxWrites === undefined ? generated : generated.filter((cmds) => writesOfRun(cmds) <= maxWrites);
  const property = fc.asyncProperty(commands, async (cmds) => {
    const env = await pick({ write: writesOfRun(cmds), read: maxCommands * 3 + POOL + 12 });
    env.evidence = [];
    const tag = env.unique('pidem');
    const real: Real = {
      env,
      keys: Array.from({ length: POOL }, (_, i) => `${tag}-k${i}`),
      cancelKeys: Array.from({ length: POOL }, (_, i) => `${tag}-c${i}`),
      refs: Array.from({ length: POOL }, (_, i) => `${tag}-r${i}`),
      otherRefs: Array.from({ length: POOL }, (_, i) => `${tag}-r${i}-other`),
      quotes: [],
      made: new Map(),
    };
    // What the run starts from, read at once: the statement, the balance and a quote for each key of the pool.
    const [entries, balance] = await Promise.all([
      env.statement('statement before the run'),
      env.balance('balance before the run'),
      ...Array.from({ length: POOL }, (_, k) => quoteFor(real, k)),
    ]);
    const before = new Set(entries.map((e) => e.id));
    const model: Model = { keys: [], balance, ledger: [] };
    try {
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      await judgeStatement(model, real, before);
    } finally {
      await giveBack(real);
    }
  });
  return { property, render: (cmds) => String(cmds).replace(/\s*\/\*.*\*\/\s*$/, '') || '(no command)' };
}

/** Commands a run may hold so that its writes (4 at most a command, and the cleanup) fit one window of `writeLimit`. */
function commandsFor(writeLimit: number): number {
  return Math.max(2, Math.min(8, Math.floor((writeLimit - POOL - 2) / 4)));
}

/** Writes a run may send at least in real time, its cleanup included: room for several commands, bursts among them, once the pool's keys are booked. */
export const RUN_WRITES = 12;

/** Writes one run sends on average (measured: about 170 writes in 25 runs). */
const WRITES_PER_RUN = 7;

/**
 * Model-based idempotency: random sequences of bookings, replays with the
 * same or another body, concurrent bursts and cancellations over a small pool
 * of fresh keys; responses, bookings, balance and statement must match the model.
 */
export const idempotencyModel: PropertyDef = {
  name: 'idempotency-model',
  title: 'Bookings and cancellations behave as the idempotency model says, alone and in concurrent bursts',
  clause: 'SPEC §4: the same Idempotency-Key with the same body replays the original response; a retried request cannot book twice',
  needs: [],
  defaultNumRuns: 25,
  // Bookings, cancellations and their replays, concurrent bursts included.
  writesPerRun: WRITES_PER_RUN,
  build(env, replay): BuiltProperty<Iterable<Cmd>> {
    return modelProperty(
      commandsFor(env.budget.limits.write),
      async (need) => {
        await env.budget.ensure(need);
        return env;
      },
      replay,
    );
  },
  // In real time the runs spread over the agencies given, as many as their write buckets have free in this window.
  realTime({ envs, numRuns, replayPath }) {
    // What each write bucket has free now (measured as the agency was learned), not its whole limit: the writes still in the window would leave the last run no room.
    const perWindow = envs.reduce((n, env) => n + Math.max(0, env.budget.free('write')), 0);
    // Each run's share of them, at least RUN_WRITES: the runs fit together whatever commands they draw, so none waits for a window.
    const runs = Math.max(1, Math.min(numRuns, Math.floor(perWindow / RUN_WRITES)));
    const maxWrites = Math.max(RUN_WRITES, Math.floor(perWindow / runs));
    const maxCommands = commandsFor(Math.max(...envs.map((e) => e.budget.limits.write)));
    const spanMs = envs[0]!.budget.windowSpanMs;
    const pick = async (need: { write: number; read: number }): Promise<PropertyEnv> => {
      const room = (env: PropertyEnv): boolean => env.budget.fits('write', need.write) && env.budget.fits('read', need.read);
      const found = envs.find(room);
      if (found) return found;
      // None has room: the first makes room (requests about to leave its window, else one window later every bucket is empty).
      const first = envs[0]!;
      if (await first.budget.room({ write: need.write, read: need.read }, (b) => first.measureBucket(b)))
        for (const env of envs.slice(1)) env.budget.waited(spanMs);
      return envs.find(room) ?? first;
    };
    const agencies = envs.map((e) => e.ctx.agencies[e.agency]?.id ?? `#${e.agency}`).join(', ');
    return {
      built: modelProperty(maxCommands, pick, replayPath ? { replayPath } : undefined, maxWrites),
      fcRuns: runs,
      runs,
      why: `${runs} runs over ${envs.length > 1 ? 'agencies' : 'agency'} ${agencies}: ${perWindow} writes of a window free for them, at most ${maxWrites} a run`,
      timeLimitMs: spanMs + 60_000,
    };
  },
};
