/**
 * Benchmark (not a test): how often idempotency-model catches
 * `replay-books-again` in real time, by the writes its agency's bucket has
 * free. The mock's write limit is set to `limit`; the property runs alone on
 * the first agency (a 5 s window and quotes, so a seed takes a moment) and
 * sizes its runs to the `limit - 2` writes free, as it does after quote-lock
 * in a suite run. Prints how many of `seeds` seeds failed it.
 *
 *   node --import tsx bench/properties/model-catch.bench.ts <limit> [seeds=36]
 */
import { runProperties } from '../../properties/index.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { DEFAULT_FIXTURE } from '../../src/mock/index.js';
import { startContext } from '../../test/scenario/_context.js';

const limit = Number(process.argv[2]);
const seeds = Number(process.argv[3] ?? 36);
if (!Number.isInteger(limit) || limit < 14 || !Number.isInteger(seeds) || seeds < 1) {
  console.error('usage: node --import tsx bench/properties/model-catch.bench.ts <write limit ≥ 14> [seeds=36]');
  process.exit(2);
}
let caught = 0;
const runs = new Map<string, number>();
for (let seed = 1; seed <= seeds; seed++) {
  const fixture = { agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: 600, write: limit } })) };
  const t = await startContext({ windowS: 5, quoteLifetimeS: 5, defects: ['replay-books-again'], fixture });
  try {
    const profile = { ...t.ctx.profile, limits: { ...t.ctx.profile.limits, window_s: 5 } };
    const ctx = { ...t.ctx, profile, clock: new RealClockDriver(), usableAgencies: new Set([0]) };
    const [r] = await runProperties(ctx, { seed: seed * 7919, only: ['idempotency-model'] });
    if (r!.verdict === 'FAIL') caught++;
    const why = /^\d+ runs over/.exec(String((r!.details as { why?: unknown }).why ?? ''))?.[0];
    if (why) runs.set(why, (runs.get(why) ?? 0) + 1);
  } finally {
    await t.close();
  }
}
console.log(`write limit ${limit} (${limit - 2} free): caught in ${caught} of ${seeds} seeds; planned: ${[...runs].map(([w, n]) => `${w} ×${n}`).join(', ')}`);
