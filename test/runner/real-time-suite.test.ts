import { durationText } from '../../src/log/duration-text.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../src/mock/index.js';
import { runRealTimeSuite, startRealTimeMock } from '../helpers/real-time-suite.js';

/*
 * The whole suite against a target whose clock cannot be moved, in real time
 * (the mock and the run are in test/helpers/real-time-suite.ts). Checks run
 * side by side on the mock's four agencies, and none may see another's
 * requests, bookings or webhooks. How close the wall time comes to the
 * announced estimate is a figure of speed: `bench/real-time-estimate.bench.ts`
 * measures it against a guard in bench/baseline.json.
 */
describe('the suite in real time (clock control none)', () => {
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startRealTimeMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('passes every check and scenario against a correct service, with checks overlapping, and announces the estimate of the schedule it plays', async () => {
    const { result, events, agencies } = await runRealTimeSuite(mock);
    const bad = result.cases.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => `${c.id} ${c.verdict}: ${c.message}`);
    expect(bad).toEqual([]);
    // The scenarios lease only the agencies they pick (alpha, and delta for cars: the richest with cars open); they send nothing to the others.
    const keyOf = (id: string): string => agencies.find((a) => a.id === id)!.key_id;
    const scenarioKeys = new Set(
      result.exchanges.filter((x) => x.label?.startsWith('scenario:')).map((x) => /Credential=([^,\s]+)/.exec(x.request.headers.authorization ?? '')?.[1]),
    );
    expect([...scenarioKeys].sort()).toEqual([keyOf('agency-alpha'), keyOf('agency-delta')].sort());
    // happy-cars, the one scenario on delta (which no property uses), ran as a unit of its own on delta
    const plan0 = events.find((e) => e.type === 'plan');
    const slots = plan0?.type === 'plan' ? (plan0.slots ?? []) : [];
    expect(slots.find((x) => x.id === 'scenario:happy-cars')?.agencies).toEqual([agencies.findIndex((a) => a.id === 'agency-delta')]);
    // checks ran side by side: at some instant two or more had started and not finished
    let open = 0;
    let most = 0;
    for (const e of events) {
      if (e.type === 'case-started') most = Math.max(most, ++open);
      if (e.type === 'case-finished' && e.result.kind === 'check') open -= 1;
    }
    expect(most).toBeGreaterThanOrEqual(2);
    // The plan comes before any case starts, and plays the schedule that overlaps checks: shorter than the same schedule one check at a time.
    const planAt = events.findIndex((e) => e.type === 'plan');
    expect(planAt).toBeGreaterThan(-1);
    expect(planAt).toBeLessThan(events.findIndex((e) => e.type === 'case-started'));
    const plan = events[planAt]!;
    expect(plan).toMatchObject({ mode: 'real-time' });
    const { estimateMs, serialMs } = plan.type === 'plan' ? plan : { estimateMs: undefined, serialMs: undefined };
    expect(estimateMs).toBeGreaterThan(0);
    expect(serialMs).toBeGreaterThan(estimateMs!);
    // The run's notes carry the same estimate the plan event announced.
    expect(result.notes.join('\n')).toContain(
      `waits happen in real time (estimated at ${durationText(estimateMs!)}, ${durationText(serialMs!)} if the checks ran one by one)`,
    );
  }, 120_000);

  it("runs the properties that leave the buckets usable beside a scenario's wait of a quote lifetime, and the fill after it", async () => {
    const { result } = await runRealTimeSuite(mock, ['scenario:quote-expiry', 'properties']);
    const bad = result.cases.filter((c) => c.verdict !== 'PASS').map((c) => `${c.id} ${c.verdict}: ${c.message}`);
    expect(bad).toEqual([]);
    const caseOf = (id: string) => result.cases.find((c) => c.id === id)!;
    const [expiry, lock, model, inputs, fill] = [
      'scenario:quote-expiry',
      'property:quote-lock',
      'property:idempotency-model',
      'property:openapi-inputs',
      'property:no-charge-on-429-and-failure',
    ].map(caseOf);
    const end = (c: { startedAt: number; durationMs: number }): number => c.startedAt + c.durationMs;
    // quote-lock and idempotency-model ran while quote-expiry waited (5 s); the wait ended once they had, then the fill
    expect(lock!.startedAt).toBeLessThan(expiry!.startedAt + 5_000);
    expect(end(model!)).toBeLessThanOrEqual(end(expiry!));
    // openapi-inputs after them, still beside the wait, with the writes left free
    expect(inputs!.startedAt).toBeGreaterThanOrEqual(end(model!) - 5);
    expect(end(inputs!)).toBeLessThanOrEqual(end(expiry!));
    expect(fill!.startedAt).toBeGreaterThanOrEqual(end(expiry!) - 5);
  }, 120_000);
});
