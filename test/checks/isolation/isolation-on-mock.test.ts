import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolationChecks } from '../../../src/checks/isolation/index.js';
import type { Check, CheckContext } from '../../../src/checks/types.js';
import type { PipelineInterceptor } from '../../../src/mock/index.js';
import { skipReason, type TargetFacts } from '../../../src/runner/target-facts.js';
import { startRig, type RlWhRig, type RlWhRun } from '../_context-rl-wh.js';

function check(id: string): Check {
  const c = isolationChecks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

async function fresh(rig: RlWhRig, defects: string[] = []): Promise<RlWhRun> {
  rig.mock.defects.disable(rig.mock.defects.list());
  rig.mock.defects.enable(defects);
  await rig.mock.reset();
  return rig.run();
}

/** Every evidence id of `out` is an exchange of `run`. */
function evidenceRecorded(run: RlWhRun, evidence: readonly string[] | undefined): boolean {
  const ids = new Set(run.recorder.exchanges.map((x) => x.id));
  return (evidence ?? []).length > 0 && (evidence ?? []).every((e) => ids.has(e));
}

describe('isolation checks against the mock', () => {
  let rig: RlWhRig;
  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => rig?.close());

  it('each needs a second agency, and the runner skips it naming what is missing when the profile has one', () => {
    const facts: TargetFacts = {
      clock: 'mock',
      agencies: 1,
      hotel: true,
      failureTrigger: true,
      receiver: true,
      products: { open: ['flights'], closed: [] },
      primaryAgency: 'a',
    };
    for (const c of isolationChecks) {
      expect(c.needs, c.id).toContain('second-agency');
      expect(c.area).toBe('isolation');
      expect(skipReason(c, facts), c.id).toMatch(/^needs a second agency/);
    }
  });

  it('every check passes on the clean mock, with its exchanges as evidence, each labelled with its id', async () => {
    const run = await fresh(rig);
    for (const c of isolationChecks) {
      const from = run.recorder.exchanges.length;
      const out = await c.run(run.context(c.id));
      expect(out.verdict, `${c.id}: ${out.message}`).toBe('PASS');
      expect(evidenceRecorded(run, out.evidence), c.id).toBe(true);
      for (const x of run.recorder.exchanges.slice(from)) expect(x.label, c.id).toMatch(new RegExp(`^${c.id} `));
    }
  });

  it.each([
    ['booking-readable-by-others', 'IS-01', "another agency's read of booking"],
    ['cancel-by-others', 'IS-01', "the other agency's statement gained 1 entry of no booking of its own"],
    ['quote-shared-across-agencies', 'IS-02', "another agency's booking with the owner's quote token answered 201, expected 404 QUOTE_NOT_FOUND"],
    ['hotel-cancel-by-others', 'IS-03', "another agency's cancellation of hotel booking"],
    ['hotel-rate-key-books-owner', 'IS-04', "the owner's hotel webhook received"],
    ['idempotency-scope-without-agency', 'IS-05', 'was answered as a replay'],
    ['webhook-to-every-agency', 'IS-06', "reached another agency's endpoint"],
    ['statement-lists-others', 'IS-07', "of the owner's entries (booking "],
  ])('defect %s makes %s fail with evidence', async (defect, id, said) => {
    const run = await fresh(rig, [defect]);
    const out = await check(id).run(run.context(id));
    expect(out.verdict, out.message).toBe('FAIL');
    expect(out.message).toContain(said);
    expect(evidenceRecorded(run, out.evidence)).toBe(true);
  });

  it('the hotel checks skip, naming it, when the second agency has no hotel key', async () => {
    const run = await fresh(rig);
    for (const id of ['IS-03', 'IS-04']) {
      const ctx = run.context(id);
      const noHotel: CheckContext = { ...ctx, hotel: (i = 0) => (i === 1 ? undefined : ctx.hotel(i)) };
      const out = await check(id).run(noHotel);
      expect(out.verdict).toBe('SKIP');
      expect(out.message).toContain('has no hotel API key');
    }
  });
});

/** An envelope body the interceptor answers with. */
function envelope(status: number, code: string): { status: number; headers: Record<string, string>; body: string } {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { code, message: 'refused', details: {}, request_id: 'req_x' } }),
  };
}

describe('IS-01 against a service that refuses another agency otherwise than 404 NOT_FOUND', () => {
  let rig: RlWhRig;
  /** What the service answers instead of 404 to a request on another agency's booking. */
  let instead: ReturnType<typeof envelope> | undefined;
  beforeAll(async () => {
    const interceptor: PipelineInterceptor = {
      after(_req, res, ctx) {
        const id = /\/v1\/flights\/bookings\/([^/]+)/.exec(ctx.path)?.[1];
        const theirs = id !== undefined && rig.mock.service.bookings.findAny('flights', id);
        if (!instead || res.status !== 404 || !theirs || theirs.agencyId === ctx.agencyId) return res;
        return { ...res, ...instead };
      },
    };
    rig = await startRig({ interceptor });
  });
  afterAll(async () => rig?.close());

  it.each([
    [403, 'FORBIDDEN'],
    [422, 'VALIDATION_FAILED'],
    [200, 'OK'],
  ])('fails on %i %s', async (status, code) => {
    instead = envelope(status, code);
    const run = await fresh(rig);
    const out = await check('IS-01').run(run.context('IS-01'));
    expect(out.verdict, out.message).toBe('FAIL');
    expect(out.message).toContain(`another agency's read of booking`);
    expect(out.message).toContain(`expected 404 NOT_FOUND`);
  });
});
