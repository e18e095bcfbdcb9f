import { describe, expect, it } from 'vitest';
import { createTargetApi } from '../../src/api/target-api.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import type { Profile, ResolvedAgency } from '../../src/profile/types.js';
import { decideGrant } from '../../src/certify/certificate/grant.js';
import { PLAN_V1 } from '../../src/certify/plan/plan-v1.js';
import { pickPartner } from '../../src/certify/certify.js';
import { certifyMock } from './_helpers.js';

describe('certification plan v1 against the mock', () => {
  it('is fixed and versioned, the rate-limit test last so earlier waits overlap with it', () => {
    expect(PLAN_V1.id).toBe('svc-agency-cert');
    expect(PLAN_V1.version).toBe('1.1.0');
    const ids = PLAN_V1.checks.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe('CERT-08');
    expect(Object.isFrozen(PLAN_V1)).toBe(true);
  });

  it('grants a faithful mock: every test passes, with evidence', async () => {
    const run = await certifyMock();
    try {
      for (const t of run.draft.tests) {
        expect(t.verdict, `${t.id}: ${t.message}`).toBe('PASS');
        expect(t.evidence.length, t.id).toBe(1);
        // A check labels its exchanges after its id; the products are read once for the whole plan.
        const labels = (t.evidence[0]!.content as { exchanges: Array<{ label?: string }> }).exchanges.map((x) => x.label ?? '');
        expect(
          labels.filter((l) => !l.startsWith(`${t.id} `) && l !== 'open products'),
          t.id,
        ).toEqual([]);
      }
      expect(run.draft.tests.find((t) => t.id === 'CERT-04')!.evidence[0]!.content).toMatchObject({
        exchanges: expect.arrayContaining([expect.objectContaining({ label: 'CERT-04 flights: book' })]),
      });
      expect(decideGrant(run.draft.tests)).toEqual({ granted: true, refusedBy: [], skipped: [] });
      const limit = run.draft.tests.find((t) => t.id === 'CERT-08')!;
      expect(limit.message).toMatch(/429 RATE_LIMITED with Retry-After \d+ s/);
    } finally {
      await run.close();
    }
  });

  it.each([
    ['replay-books-again', 'CERT-05', /charged once|differs/],
    ['retry-after-short', 'CERT-08', /expected to be admitted/],
    ['retry-after-missing', 'CERT-08', /no usable retry-after/i],
    ['expired-quote-accepted', 'CERT-07', /expected 410 QUOTE_EXPIRED/],
    ['webhook-bad-signature', 'CERT-06', /not correctly signed: signature-mismatch/],
    ['signature-unchecked', 'CERT-01', /expected 401 SIGNATURE_INVALID/],
    ['contract-skip', 'CERT-03', /expected 403 MODULE_NOT_ENABLED/],
    ['cancel-no-refund', 'CERT-04', /expected it back/],
    ['quote-shared-across-agencies', 'CERT-09', /IS-02 FAIL: another agency's booking with the owner's quote token answered 201, expected 404 QUOTE_NOT_FOUND/],
    ['idempotency-scope-without-agency', 'CERT-09', /IS-05 FAIL: .*answered as a replay/],
  ])('refuses a mock with defect %s, naming %s', async (defect, id, why) => {
    const run = await certifyMock({ defects: [defect] });
    try {
      const failing = run.draft.tests.filter((t) => t.verdict !== 'PASS');
      expect(failing.map((t) => t.id)).toContain(id);
      expect(failing.find((t) => t.id === id)!.message).toMatch(why);
      const grant = decideGrant(run.draft.tests);
      expect(grant.granted).toBe(false);
      expect(grant.refusedBy).toContain(id);
    } finally {
      await run.close();
    }
  });

  it('says CERT-09 is not run, and still grants, without a second agency of the organisation', async () => {
    const run = await certifyMock({ partner: null });
    try {
      const apart = run.draft.tests.find((t) => t.id === 'CERT-09')!;
      expect(apart.verdict).toBe('SKIP');
      expect(apart.message).toBe('not run: the profile gives no second agency of the same organisation');
      expect(decideGrant(run.draft.tests)).toEqual({ granted: true, refusedBy: [], skipped: ['CERT-09'] });
    } finally {
      await run.close();
    }
  });

  it('names a not-run test as SKIP and never as PASS: quotes that live longer than --max-wait', async () => {
    const run = await certifyMock({ maxWaitS: 2 });
    try {
      const quote = run.draft.tests.find((t) => t.id === 'CERT-07')!;
      expect(quote.verdict).toBe('SKIP');
      expect(quote.message).toBe(
        'not run: quotes live 3 s (quote_expires_at minus the time of the answer); it waits 3 s in real time for the quote to expire, over --max-wait 2 s (raise --max-wait to wait it)',
      );
      const grant = decideGrant(run.draft.tests);
      expect(grant.skipped).toEqual(['CERT-07']);
    } finally {
      await run.close();
    }
  });

  it('learns the quote lifetime from the service, as a run does, and holds --max-wait against that, not against the profile', async () => {
    // The profile says 900 s, the service's quotes live 3 s: the test runs (it once said "not run: quotes live 900 s").
    const long = await certifyMock({ profileLifetimeS: 900 });
    try {
      const quote = long.draft.tests.find((t) => t.id === 'CERT-07')!;
      expect(quote.verdict, quote.message).toBe('PASS');
      expect(quote.message).toContain('(lifetime 3 s)');
    } finally {
      await long.close();
    }
    // The profile says 1 s, within --max-wait 2; the service's quotes live 3 s, over it: not run, saying both.
    const short = await certifyMock({ profileLifetimeS: 1, maxWaitS: 2 });
    try {
      const quote = short.draft.tests.find((t) => t.id === 'CERT-07')!;
      expect(quote.verdict, quote.message).toBe('SKIP');
      expect(quote.message).toMatch(
        /^not run: quotes live 3 s \(quote_expires_at minus the time of the answer; the profile says 1 s\); it waits 3 s .*over --max-wait 2 s/,
      );
    } finally {
      await short.close();
    }
  });

  it("puts the agency's own webhook endpoint back afterwards, with the exchange as evidence", async () => {
    const original = 'http://127.0.0.1:9/agency-own-endpoint';
    let seen: { agency: ResolvedAgency; profile: Readonly<Profile> } | undefined;
    const run = await certifyMock({
      before: async (agency, profile) => {
        seen = { agency, profile };
        const api = createTargetApi({ profile, agency, recorder: new MemoryRecorder() });
        expect((await api.setWebhookEndpoint(original)).status).toBe(200);
        await api.close();
      },
    });
    try {
      const api = createTargetApi({ profile: seen!.profile, agency: seen!.agency, recorder: new MemoryRecorder() });
      const now = await api.getWebhookEndpoint();
      await api.close();
      expect((now.json as { url: string }).url).toBe(original);
      expect(run.draft.attachments?.map((a) => a.name)).toEqual(['zz-tidy-up.json']);
      expect(run.draft.notes).toEqual([]);
    } finally {
      await run.close();
    }
  });
});

describe('the partner agency of CERT-09', () => {
  const agency = (id: string, organisation?: string) => ({ id, key_id: `ak_${id}`, secret: `s_${id}`, ...(organisation ? { organisation } : {}) });
  const profileOf = (...agencies: ReturnType<typeof agency>[]) => ({ agencies }) as unknown as Profile;
  const me: ResolvedAgency = { id: 'a', keyId: 'ak_a', secret: 's_a' };

  it('is another agency of the same organisation, and only that', () => {
    expect(pickPartner(profileOf(agency('a', 'acme'), agency('b', 'other'), agency('c', 'acme')), me)).toEqual({
      partner: { id: 'c', keyId: 'ak_c', secret: 's_c' },
    });
    expect(pickPartner(profileOf(agency('a', 'acme'), agency('b', 'other')), me)).toEqual({
      partnerMissing: 'the profile gives no second agency of organisation acme',
    });
    expect(pickPartner(profileOf(agency('a'), agency('b')), me)).toEqual({
      partnerMissing: 'the profile names no organisation for a (agencies[].organisation), so no other agency may be tried against it',
    });
  });
});
