import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketRef, Check, ResourceRef } from '../../src/checks/types.js';
import { REDACTED } from '../../src/log/redacted.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { Profile, ResolvedAgency } from '../../src/profile/types.js';
import type { ClockDriver } from '../../src/clock/clock-driver.js';
import { MockClockDriver } from '../../src/clock/mock-clock-driver.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { runSuite } from '../../src/runner/run-suite.js';

const base: Pick<Check, 'area' | 'clause' | 'needs'> = { area: 'auth', clause: 'SPEC §5', needs: [] };
const mk = (id: string, run: Check['run'], extra: Partial<Check> = {}): Check => ({ ...base, id, title: `check ${id}`, run, ...extra });

describe('runSuite against the embedded mock', () => {
  let mock: RunningMock;
  let profile: Readonly<Profile>;
  let agencies: ResolvedAgency[];

  beforeAll(async () => {
    mock = await createMock({ admin: true });
    profile = resolveProfile({
      base_url: mock.baseUrl,
      hotel_base_url: null,
      clock: { control: 'mock-admin', admin_url: mock.adminUrl },
      agencies: [{ id: 'agency-alpha', key_id: 'ak_alpha', secret: mock.agencies[0]!.secret }],
    });
    agencies = [{ id: 'agency-alpha', keyId: 'ak_alpha', secret: mock.agencies[0]!.secret }];
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('turns outcomes, throws, timeouts and unmet needs into verdicts, resetting before a check wherever a request was sent since the last reset', async () => {
    let resets = 0;
    const seenKeys: string[] = [];
    const checks: Check[] = [
      mk('T-PASS', async (ctx) => {
        const res = await ctx.api().account({ label: 'T-PASS account' });
        seenKeys.push(ctx.unique('idem-'), ctx.unique('idem-'));
        return { verdict: res.status === 200 ? 'PASS' : 'FAIL', message: `account ${res.status}`, evidence: [res.exchange.id] };
      }),
      mk('T-FAIL', async () => ({ verdict: 'FAIL', message: 'broken on purpose', details: { expected: 1, actual: 2 } })),
      mk('T-THROW', async () => {
        throw new Error('boom');
      }),
      mk('T-SLOW', () => new Promise(() => undefined)),
      mk('T-AGENCY', async () => ({ verdict: 'PASS', message: 'never' }), { needs: ['second-agency'] }),
      mk('T-HOTEL', async () => ({ verdict: 'PASS', message: 'never' }), { needs: ['hotel'] }),
      mk('T-CLOSED', async (ctx) => ({ verdict: 'PASS', message: `receiver ${ctx.receiver ? 'yes' : 'no'}` }), { needs: ['closed-product'] }),
      mk('T-RECV', async () => ({ verdict: 'PASS', message: 'never' }), { needs: ['receiver'] }),
      mk('T-LAST', async (ctx) => ({ verdict: 'PASS', message: `saw ${ctx.exchanges().length} exchanges` }), { phase: 'last' }),
    ];
    const events: RunEvent[] = [];
    const result = await runSuite({
      profile,
      agencies,
      checks,
      clock: new MockClockDriver(mock.clock),
      reset: async () => {
        resets += 1;
        await mock.reset();
      },
      checkTimeoutMs: 300,
      seed: 42,
      onEvent: (e) => events.push(e),
    });
    const byId = Object.fromEntries(result.cases.map((c) => [c.id, c]));
    expect(result.cases.map((c) => c.id)).toEqual(checks.map((c) => c.id));
    expect(byId['T-PASS']).toMatchObject({ verdict: 'PASS', message: 'account 200', kind: 'check', area: 'auth' });
    expect(byId['T-PASS']!.evidence).toHaveLength(1);
    expect(result.exchanges.map((x) => x.id)).toContain(byId['T-PASS']!.evidence[0]);
    expect(byId['T-FAIL']).toMatchObject({ verdict: 'FAIL', message: 'broken on purpose', details: { expected: 1, actual: 2 } });
    expect(byId['T-THROW']).toMatchObject({ verdict: 'ERROR', message: 'check threw: boom' });
    expect(byId['T-SLOW']).toMatchObject({ verdict: 'ERROR', message: expect.stringContaining('timed out after 300 ms') });
    expect(byId['T-AGENCY']).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('needs a second agency') });
    expect(byId['T-HOTEL']).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('hotel_base_url is null') });
    expect(byId['T-CLOSED']).toMatchObject({ verdict: 'PASS', message: 'receiver no' });
    expect(byId['T-RECV']).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('receiver') });
    expect(byId['T-LAST']!.message).toMatch(/saw [1-9]\d* exchanges/);
    expect(result.summary).toEqual({ PASS: 3, FAIL: 1, WARN: 0, SKIP: 3, ERROR: 2, total: 9 });
    expect(result.verdict).toBe('FAIL');
    expect(result.seed).toBe(42);
    expect(result.target).toMatchObject({ baseUrl: mock.baseUrl, clock: 'mock-admin' });
    // One reset for the products probe, then one before each check that follows a request: after the facts read, and after T-PASS.
    // The other checks send nothing, so the target is still the fixture before the next one.
    expect(resets).toBe(3);
    expect(seenKeys[0]).not.toBe(seenKeys[1]);
    expect(seenKeys[0]).toContain(result.runId);
    expect(events.filter((e) => e.type === 'case-finished')).toHaveLength(checks.length);
    expect(events[0]).toMatchObject({ type: 'plan', mode: 'isolated' });
  });

  it('runs the members of one episode together, with no reset and no cooling between them, reported in registry order', async () => {
    const order: string[] = [];
    const note =
      (id: string): Check['run'] =>
      async () => {
        order.push(id);
        return { verdict: 'PASS', message: id };
      };
    const fills: BucketRef[] = ['0:write'];
    const checks: Check[] = [
      mk('E-1', note('E-1'), { episode: 'e', uses: { fills } }),
      mk('X-1', note('X-1'), { uses: { fills } }),
      mk('E-2', note('E-2'), { episode: 'e', uses: { fills } }),
      mk('E-3', note('E-3'), { episode: 'e', uses: { fills } }),
    ];
    for (const reset of [true, false]) {
      order.length = 0;
      const events: RunEvent[] = [];
      const resetsBefore: string[] = [];
      const result = await runSuite({
        profile,
        agencies,
        checks,
        clock: new MockClockDriver(mock.clock),
        ...(reset ? { reset: async () => void resetsBefore.push(order[order.length - 1] ?? 'start') } : {}),
        onEvent: (e) => events.push(e),
      });
      expect(order).toEqual(['E-1', 'E-2', 'E-3', 'X-1']);
      expect(result.cases.map((c) => c.id)).toEqual(['E-1', 'X-1', 'E-2', 'E-3']);
      // The episode sent nothing: the target is still the fixture for X-1, so one reset serves both.
      if (reset) expect(resetsBefore).toEqual(['start']);
      // Without a reset, only X-1 waits for the episode's bucket to cool.
      else expect(events.filter((e) => e.type === 'waiting').map((e) => (e as { reason: string }).reason)).toEqual([expect.stringContaining('X-1')]);
    }
  });

  it('redacts every secret from the exchanges and cases of the result', async () => {
    const secret = agencies[0]!.secret;
    const checks = [
      mk('T-LEAK', async (ctx) => {
        const res = await ctx.api().raw('GET', '/account', undefined, { headers: { 'x-echo': secret } });
        return { verdict: 'PASS', message: `used ${secret}`, evidence: [res.exchange.id] };
      }),
    ];
    const result = await runSuite({ profile, agencies, checks, clock: new MockClockDriver(mock.clock), reset: () => mock.reset() });
    const text = JSON.stringify(result);
    expect(text).not.toContain(secret);
    expect(text).toContain(REDACTED);
  });

  it('calls scenario and property parts with a context that can reset', async () => {
    let sawReset = false;
    const result = await runSuite({
      profile,
      agencies,
      checks: [mk('T-A', async () => ({ verdict: 'PASS', message: 'ok' }))],
      clock: new MockClockDriver(mock.clock),
      reset: () => mock.reset(),
      parts: {
        scenarios: async (ctx) => {
          sawReset = typeof ctx.reset === 'function';
          const at = ctx.clock.now();
          return [
            {
              id: 'scenario:x',
              kind: 'scenario',
              title: 'x',
              area: 'scenarios',
              clause: '',
              verdict: 'PASS',
              message: 'ok',
              evidence: [],
              startedAt: at,
              durationMs: 0,
            },
          ];
        },
        properties: async () => {
          throw new Error('no properties today');
        },
      },
    });
    expect(sawReset).toBe(true);
    expect(result.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['T-A', 'PASS'],
      ['scenario:x', 'PASS'],
      ['property:*', 'ERROR'],
    ]);
    expect(result.cases[2]!.message).toContain('no properties today');
  });
});

/** A real-time clock whose waits end when the test says so: concurrency is observed, never slept through. */
class ManualClock implements ClockDriver {
  readonly kind = 'real' as const;
  t = 1_000_000;
  now(): number {
    return this.t;
  }
  async waitUntil(instant: number): Promise<void> {
    this.t = Math.max(this.t, instant);
  }
  async wait(ms: number): Promise<void> {
    this.t += ms;
  }
  fineUntil(): void {}
}

describe('runSuite against a target without clock control', () => {
  const profile = resolveProfile({
    base_url: 'http://127.0.0.1:1/v1',
    hotel_base_url: null,
    clock: { control: 'none' },
    agencies: [{ id: 'a', key_id: 'k', secret: 'secret-a' }],
  });
  const agencies = [{ id: 'a', keyId: 'k', secret: 'secret-a' }];

  it('runs checks on disjoint resources at once and lets a filled bucket cool a window', async () => {
    let running = 0;
    let maxRunning = 0;
    const order: string[] = [];
    const clock = new ManualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const light = (id: string, touches: ResourceRef[]): Check =>
      mk(
        id,
        async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          order.push(`start ${id}`);
          if (running === 3) release();
          await gate;
          running -= 1;
          return { verdict: 'PASS', message: 'ok' };
        },
        { uses: { touches, wait: { ms: () => 20_000 } } },
      );
    const filler = (id: string): Check =>
      mk(
        id,
        async (ctx) => {
          order.push(`start ${id} at ${ctx.clock.now()}`);
          return { verdict: 'PASS', message: 'ok' };
        },
        { uses: { touches: ['0:read'], fills: ['0:read'], wait: { ms: () => 60_000 } } },
      );
    const events: RunEvent[] = [];
    const result = await runSuite({
      profile,
      agencies,
      checks: [light('L1', ['0:wallet']), light('L2', ['0:webhook']), light('L3', ['0:hotel']), filler('F1'), filler('F2')],
      clock,
      onEvent: (e) => events.push(e),
    });
    expect(maxRunning).toBe(3);
    expect(result.cases.every((c) => c.verdict === 'PASS')).toBe(true);
    const f1 = order.find((o) => o.startsWith('start F1'))!;
    const f2 = order.find((o) => o.startsWith('start F2'))!;
    const at = (s: string) => Number(s.split(' at ')[1]);
    expect(at(f2) - at(f1)).toBeGreaterThanOrEqual(profile.limits.window_s * 1000);
    const plan = events.find((e) => e.type === 'plan');
    expect(plan).toMatchObject({ mode: 'real-time' });
    expect(result.notes.join(' ')).toContain('real time');
  });

  it('never runs two checks on a common resource at once', async () => {
    let running = 0;
    let maxRunning = 0;
    const clock = new ManualClock();
    const busy = (id: string): Check =>
      mk(
        id,
        async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((r) => setTimeout(r, 5));
          running -= 1;
          return { verdict: 'PASS', message: 'ok' };
        },
        { uses: { touches: ['0:wallet'] } },
      );
    const result = await runSuite({ profile, agencies, checks: [busy('W1'), busy('W2'), busy('W3')], clock });
    expect(result.cases.map((c) => c.verdict)).toEqual(['PASS', 'PASS', 'PASS']);
    expect(maxRunning).toBe(1);
  });
});

describe('runSuite when the baseline is refused', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await createMock({ admin: true });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('runs AU-01 first and, when it fails, skips the rest with its reason: INCONCLUSIVE', async () => {
    const { validRequestCheck } = await import('../../src/checks/auth/valid-request.js');
    const profile = resolveProfile({
      base_url: mock.baseUrl,
      hotel_base_url: null,
      clock: { control: 'mock-admin', admin_url: mock.adminUrl },
      agencies: [{ id: 'agency-alpha', key_id: 'ak_alpha', secret: 'not-the-secret' }],
    });
    const agencies: ResolvedAgency[] = [{ id: 'agency-alpha', keyId: 'ak_alpha', secret: 'not-the-secret' }];
    const order: string[] = [];
    const checks: Check[] = [
      mk('T-BEFORE', async () => {
        order.push('T-BEFORE');
        return { verdict: 'PASS', message: 'ran' };
      }),
      { ...validRequestCheck, run: async (ctx) => (order.push('AU-01'), validRequestCheck.run(ctx)) },
      mk('T-LAST', async () => ({ verdict: 'PASS', message: 'ran' }), { phase: 'last' }),
    ];
    const result = await runSuite({
      profile,
      agencies,
      checks,
      clock: new MockClockDriver(mock.clock),
      reset: () => mock.reset(),
      parts: { scenarios: async () => [] },
    });
    expect(order).toEqual(['AU-01']);
    const byId = Object.fromEntries(result.cases.map((c) => [c.id, c]));
    expect(byId['AU-01']!.verdict).toBe('FAIL');
    for (const id of ['T-BEFORE', 'T-LAST', 'scenario:*'])
      expect(byId[id]).toMatchObject({ verdict: 'SKIP', message: expect.stringContaining('baseline AU-01') });
    expect(result.verdict).toBe('INCONCLUSIVE');
    expect(result.verdictReason).toContain('AU-01');
    expect(result.verdictReason).not.toContain('not-the-secret');
  });
});
