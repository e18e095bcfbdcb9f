import * as fc from 'fast-check';
import type { ApiResponse } from '../src/api/types.js';
import type { PropertyEnv } from './_internal/property-env.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';

/** A booking refused on purpose: by the rate limit, or by the supplier (the profile's failure trigger). */
type Refusal = 'limited' | 'failing';

const FILL_BATCH = 64;

/** Fills the write bucket with requests that change nothing (a booking without an idempotency key), until none is admitted. */
async function fillWrites(env: PropertyEnv): Promise<void> {
  const filler = async (): Promise<{ status: number; remaining: number | undefined }> => {
    const res = await env.noOpWrite('fill the write bucket');
    return { status: res.status, remaining: res.rateLimit.remaining };
  };
  const limited = env.ctx.profile.errors.rate_limited.status;
  let last = await filler();
  for (let sent = 1; last.status !== limited && last.remaining !== 0 && sent <= env.budget.limits.write + 1;) {
    // With a remaining count the rest goes at once; without one, request by request.
    const n = last.remaining !== undefined ? Math.min(FILL_BATCH, last.remaining) : 1;
    const batch = await Promise.all(Array.from({ length: n }, filler));
    sent += n;
    last = batch.find((b) => b.status === limited) ?? batch.reduce((a, b) => ((b.remaining ?? Infinity) < (a.remaining ?? Infinity) ? b : a));
  }
  env.budget.full('write');
}

async function refuse(env: PropertyEnv, kind: Refusal, i: number, state: { full: boolean }): Promise<void> {
  const what = `#${i + 1} ${kind}`;
  await env.budget.ensure({ read: 4 });
  // The quote is a read: it goes out with the fill of the write bucket. So does the balance before when nothing is
  // filled (a wait moves no money); after a fill, it is read once the fill's writes are answered.
  const filling = kind === 'limited' && !state.full;
  const [offer, , read] = await Promise.all([
    env.offer(`${what}: quote`),
    filling ? fillWrites(env) : undefined,
    filling ? undefined : env.balanceRead(`${what}: balance before`),
  ]);
  if (kind === 'limited') state.full = true;
  if (kind === 'failing' && (state.full || !env.budget.fits('write', 1))) {
    await env.budget.waitWindow();
    state.full = false;
  }
  const before = read ?? (await env.balanceRead(`${what}: balance before`));
  const prefix = env.ctx.profile.failure_trigger?.client_reference_prefix ?? '';
  const ref = kind === 'failing' ? `${prefix}-${env.unique('nc')}` : env.unique('nc');
  const res = env.track(
    await env.api.book(env.product, offer.quoteToken, env.unique('nc-key'), { clientReference: ref, label: env.label(`${what}: booking`) }),
    'write',
  );
  const key = kind === 'limited' ? 'rate_limited' : 'supplier_unavailable';
  if (!env.is(res, key)) {
    env.fail(
      `${what}: expected the booking refused as ${key} (${env.ctx.profile.errors[key].status} ${env.ctx.profile.errors[key].code}), got ${env.describe(res)}`,
      { decisive: [res] },
    );
  }
  const after = await env.balanceRead(`${what}: balance after`);
  // The refused booking, then the two reads that show the wallet moved.
  if (after.amount !== before.amount)
    env.fail(`${what}: a booking refused with ${env.describe(res)} changed the wallet by ${after.amount - before.amount}`, { decisive: [res, before, after] });
}

/** Fresh fills after a booking the fill should have refused was admitted (a slot of the window freed meanwhile). */
const REFILLS = 2;

/**
 * Real time: every run's bookings in one fill of the write bucket. The
 * supplier failures go first, while the bucket admits them; then the bucket
 * is filled once and every other booking meets a 429. Each must leave the
 * wallet as it was, and the statement must show none of them. A booking the
 * bucket admitted after all (a slot of the rolling window freed) is given
 * back once a window has passed, and tried again after a fresh fill.
 */
async function refuseInOneFill(env: PropertyEnv, list: readonly Refusal[][]): Promise<void> {
  env.evidence = [];
  const ops = list.flatMap((run, r) => run.map((kind, i) => ({ kind, what: `run ${r + 1} #${i + 1} ${kind}` })));
  // A quote and a balance per booking; the balance after one is the balance before the next.
  await env.budget.ensure({ read: 2 * ops.length + 8 });
  const statementBefore = await env.statementRead('statement before');
  const entries = new Set(statementBefore.entries.map((e) => e.id));
  const prefix = env.ctx.profile.failure_trigger?.client_reference_prefix ?? '';
  const admitted = new Set<string>();
  let balance = await env.balanceRead('balance before');
  const send = async (what: string, failing: boolean): Promise<ApiResponse & { bookingId?: string }> => {
    const offer = await env.offer(`${what}: quote`);
    const ref = failing ? `${prefix}-${env.unique('nc')}` : env.unique('nc');
    return env.track(
      await env.api.book(env.product, offer.quoteToken, env.unique('nc-key'), { clientReference: ref, label: env.label(`${what}: booking`) }),
      'write',
    );
  };
  const judge = async (what: string, res: ApiResponse): Promise<void> => {
    const after = await env.balanceRead(`${what}: balance after`);
    if (after.amount !== balance.amount)
      env.fail(`${what}: a booking refused with ${env.describe(res)} changed the wallet by ${after.amount - balance.amount}`, {
        decisive: [res, balance, after],
      });
    balance = after;
  };
  // Supplier failures while the bucket admits them; those left over meet the fill like the others.
  const failing = ops.filter((o) => o.kind === 'failing');
  const early = failing.slice(0, env.budget.free('write'));
  for (const op of early) {
    const res = await send(op.what, true);
    if (!env.is(res, 'supplier_unavailable') && !env.is(res, 'rate_limited'))
      env.fail(
        `${op.what}: expected the booking refused as supplier_unavailable (${env.ctx.profile.errors.supplier_unavailable.status}), got ${env.describe(res)}`,
        { decisive: [res] },
      );
    await judge(op.what, res);
  }
  await fillWrites(env);
  for (const op of ops.filter((o) => !early.includes(o))) {
    for (let attempt = 1; ; attempt++) {
      const res = await send(op.what, op.kind === 'failing');
      const refused = env.is(res, 'rate_limited') || (op.kind === 'failing' && env.is(res, 'supplier_unavailable'));
      if (refused || res.bookingId === undefined || attempt > REFILLS) {
        if (!refused)
          env.fail(`${op.what}: expected the booking refused as rate_limited (${env.ctx.profile.errors.rate_limited.status}), got ${env.describe(res)}`, {
            decisive: [res],
          });
        await judge(op.what, res);
        break;
      }
      // Admitted (a slot of the window freed): no 429 to judge. The fill's writes are left to age out of the window
      // (a refill on top of them lost four tries in a row to their expiry on a busy machine), the money given back, and
      // the bucket filled afresh in one batch: the next try follows a fill that holds for a whole window.
      admitted.add(res.bookingId);
      await env.budget.waitWindow();
      await env.api.cancel(env.product, res.bookingId, env.unique('nc-cancel'), { label: env.label('give back a booking the bucket admitted') });
      balance = await env.balanceRead('balance after a booking given back');
      await fillWrites(env);
    }
  }
  const after = await env.statementRead('statement after');
  const added = after.entries.filter((e) => !entries.has(e.id) && !admitted.has(e.bookingId ?? ''));
  if (added.length)
    env.fail(`refused bookings left ${added.length} statement entr${added.length > 1 ? 'ies' : 'y'}: ${added.map((e) => `${e.type} ${e.amount}`).join(', ')}`, {
      decisive: [...after.exchanges, ...statementBefore.exchanges],
    });
}

/**
 * Bookings answered 429 and bookings the supplier refuses, in random
 * interleavings, never change the wallet: neither its balance nor its statement.
 */
export const noChargeOn429AndFailure: PropertyDef = {
  name: 'no-charge-on-429-and-failure',
  title: 'Bookings refused by the rate limit or by the supplier never charge the wallet',
  clause: 'SPEC §1, §7: a request answered with 429 charges nothing; a failed booking charges nothing',
  needs: [],
  defaultNumRuns: 10,
  fills: true,
  build(env): BuiltProperty<Refusal[]> {
    const kinds: Refusal[] = env.ctx.profile.failure_trigger ? ['limited', 'failing'] : ['limited'];
    const property = fc.asyncProperty(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 4 }), async (ops) => {
      env.evidence = [];
      // Each run starts with empty buckets, whatever the last one left (the last run waited a window at its end unless it failed).
      if (!env.budget.isEmpty()) await env.budget.waitWindow();
      const before = await env.statementRead('statement before');
      const entries = new Set(before.entries.map((e) => e.id));
      const state = { full: false };
      for (const [i, kind] of ops.entries()) await refuse(env, kind, i, state);
      const after = await env.statementRead('statement after');
      const added = after.entries.filter((e) => !entries.has(e.id));
      if (added.length)
        env.fail(
          `refused bookings left ${added.length} statement entr${added.length > 1 ? 'ies' : 'y'}: ${added.map((e) => `${e.type} ${e.amount}`).join(', ')}`,
          { decisive: [...after.exchanges, ...before.exchanges] },
        );
      // Leave the write bucket usable for whatever runs next.
      await env.budget.waitWindow();
    });
    return { property, render: (ops) => `[${ops.join(', ')}]` };
  },
  realTime({ envs: [env], numRuns }) {
    const kinds: Refusal[] = env!.ctx.profile.failure_trigger ? ['limited', 'failing'] : ['limited'];
    const runs = fc.array(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 4 }), { minLength: numRuns, maxLength: numRuns });
    const property = fc.asyncProperty(runs, (list) => refuseInOneFill(env!, list));
    return {
      built: { property, render: (list: Refusal[][]) => list.map((ops) => `[${ops.join(', ')}]`).join(',') },
      fcRuns: 1,
      runs: numRuns,
      why: `${numRuns} runs judged in one fill of the write bucket${kinds.length > 1 ? ' (the supplier failures before it)' : '; no failure trigger in the profile (failure_trigger): 429s only'}`,
    };
  },
};
