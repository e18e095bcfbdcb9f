import * as fc from 'fast-check';
import type { PropertyEnv } from './_internal/property-env.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';

/** A booking refused on purpose: by the rate limit, or by the supplier (the profile's failure trigger). */
type Refusal = 'limited' | 'failing';

const FILL_BATCH = 64;

/** Fills the write bucket with requests that change nothing (a booking without an idempotency key), until none is admitted. */
async function fillWrites(env: PropertyEnv): Promise<void> {
  const filler = async (): Promise<{ status: number; remaining: number | undefined }> => {
    const res = env.track(await env.api.book(env.product, 'qt_filler', undefined, { label: env.label('fill the write bucket') }), 'write');
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
  // The quote is a read: it goes out with the fill of the write bucket.
  const [offer] = await Promise.all([env.offer(`${what}: quote`), kind === 'limited' && !state.full ? fillWrites(env) : undefined]);
  if (kind === 'limited') state.full = true;
  if (kind === 'failing' && (state.full || !env.budget.fits('write', 1))) {
    await env.budget.waitWindow();
    state.full = false;
  }
  const before = await env.balance(`${what}: balance before`);
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
    );
  }
  const after = await env.balance(`${what}: balance after`);
  if (after !== before) env.fail(`${what}: a booking refused with ${env.describe(res)} changed the wallet by ${after - before}`);
}

/**
 * Bookings answered 429 and bookings the supplier refuses, in random
 * interleavings, never change the wallet: neither its balance nor its statement.
 */
export const noChargeOn429AndFailure: PropertyDef = {
  name: 'no-charge-on-429-and-failure',
  title: 'Bookings refused by the rate limit or by the supplier never charge the wallet',
  clause: 'SPEC §1, §7: a request answered with 429 charges nothing; a failed booking charges nothing',
  needs: ['clock-control'],
  defaultNumRuns: 10,
  build(env): BuiltProperty<Refusal[]> {
    const kinds: Refusal[] = env.ctx.profile.failure_trigger ? ['limited', 'failing'] : ['limited'];
    const property = fc.asyncProperty(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 4 }), async (ops) => {
      env.evidence = [];
      // Each run starts with empty buckets, whatever the last one left (the last run waited a window at its end unless it failed).
      if (!env.budget.isEmpty()) await env.budget.waitWindow();
      const entries = new Set((await env.statement('statement before')).map((e) => e.id));
      const state = { full: false };
      for (const [i, kind] of ops.entries()) await refuse(env, kind, i, state);
      const added = (await env.statement('statement after')).filter((e) => !entries.has(e.id));
      if (added.length)
        env.fail(
          `refused bookings left ${added.length} statement entr${added.length > 1 ? 'ies' : 'y'}: ${added.map((e) => `${e.type} ${e.amount}`).join(', ')}`,
        );
      // Leave the write bucket usable for whatever runs next.
      await env.budget.waitWindow();
    });
    return { property, render: (ops) => `[${ops.join(', ')}]` };
  },
};
