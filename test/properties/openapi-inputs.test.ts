import { afterEach, describe, expect, it } from 'vitest';
import { runProperties } from '../../properties/index.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { startContext, type TestContext } from '../scenario/_context.js';

let t: TestContext | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await t?.close();
  await receiver?.close();
  t = undefined;
  receiver = undefined;
});

/** A mock (with `defects`) and the harness's receiver, reachable by it. */
async function withReceiver(defects: string[] = []): Promise<{ t: TestContext; receiver: Receiver; ctx: TestContext['ctx'] }> {
  t = await startContext({ defects });
  receiver = await startReceiver();
  return { t, receiver, ctx: { ...t.ctx, receiver } };
}

describe('property openapi-inputs', () => {
  it('holds against the clean mock, reporting per operation what it generated', async () => {
    t = await startContext();
    const [r] = await runProperties(t.ctx, { seed: 4242, only: ['openapi-inputs'], numRuns: 3 });
    expect(r, r!.message).toMatchObject({ id: 'property:openapi-inputs', verdict: 'PASS' });
    const ops = (r!.details as { operations: Array<{ operation: string; valid: number; invalid: number; keywords: string[] }> }).operations;

    const booking = ops.find((o) => o.operation === 'POST /{product}/bookings')!;
    expect(booking.valid).toBe(3);
    expect(booking.keywords).toEqual(expect.arrayContaining(['type', 'required', 'minItems', 'maxItems', 'maxLength', 'pattern', 'path enum']));
    const statuses = new Set(t.recorder.exchanges.map((x) => x.response?.status));
    for (const s of [200, 404, 405, 422]) expect(statuses).toContain(s);
    // No receiver reachable by the target: the events are not judged, and the case says so.
    expect(r!.message).toMatch(/held .*; not judged: webhook events \(no webhook receiver reachable by the target\)$/);
    expect(r!.details).toMatchObject({ events: { judged: false, why: 'no webhook receiver reachable by the target' } });
  });

  it("watches the agency's events on a receiver path of its own, none stray, and sets the endpoint back", async () => {
    const { ctx, receiver } = await withReceiver();
    const before = `${receiver.url}/before`;
    expect((await ctx.api(0).setWebhookEndpoint(before)).status).toBe(200);
    const [r] = await runProperties(ctx, { seed: 4242, only: ['openapi-inputs'], numRuns: 3 });
    expect(r, r!.message).toMatchObject({ verdict: 'PASS' });
    expect(r!.message).not.toMatch(/not judged/);
    const events = (r!.details as { events: { judged: boolean; path: string } }).events;
    expect(events).toMatchObject({ judged: true, path: expect.stringMatching(/^\/wh\/oi-events/) });
    const set = t!.recorder.exchanges.filter((x) => x.request.method === 'PUT' && x.request.url.endsWith('/webhook-endpoint') && x.response?.status === 200);
    expect(set.map((x) => JSON.parse(x.request.body ?? '{}').url)).toEqual([before, receiver.url + events.path, before]);
    expect((await ctx.api(0).getWebhookEndpoint()).json).toMatchObject({ url: before });
  });
});

describe('property openapi-inputs fails with a shrunk request on a broken mock', () => {
  const broken: [string, RegExp, RegExp][] = [
    ['booking-body-unchecked', /^POST \/\w+\/bookings \{.*\} \(broken: body (type|required) at \/[\w/]*\)$/, /answered 500 INTERNAL_ERROR, a server error/],
    ['validation-fields-unnamed', /^POST \/\w+\/bookings \{.*\} \(broken: body \w+ at \/\w[\w/]*\)$/, /details\.fields \(body\) does not name body \//],
    [
      'invalid-booking-charges',
      /^POST \/\w+\/bookings \{.*\} \(broken: body \w+ at \/[\w/]*\)$/,
      /refused writes changed the wallet: balance \d+ → \d+, 1 new statement entry \(debit 100\)/,
    ],
    [
      'statement-limit-unchecked',
      /^GET \/wallet\/statement\?limit=(0|201)&cursor=\w* \(broken: query (minimum|maximum) at \/limit\)$/,
      /an invalid input answered 200, expected 422 or 400/,
    ],
    // An unknown cursor is refused before the limit is judged: the shrunk request may be valid or carry a broken limit too.
    [
      'statement-cursor-not-found',
      /^GET \/wallet\/statement\?limit=\d+&cursor=\w+ \((valid|broken: query \w+ at \/limit)\)$/,
      /(refused with 404 NOT_FOUND, which the document does not list for GET \/wallet\/statement|invalid input answered 404 NOT_FOUND)/,
    ],
    [
      'product-method-not-found',
      /^(GET|PUT|PATCH|DELETE|POST) \/\w+\/[\w/]+ \(a method \/[{}\w/]+ does not document\)$/,
      /answered 404 NOT_FOUND, expected 405 METHOD_NOT_ALLOWED/,
    ],
  ];
  for (const [defect, counterexample, message] of broken) {
    it(`with ${defect}`, async () => {
      t = await startContext({ defects: [defect] });
      const [r] = await runProperties(t.ctx, { seed: 7, only: ['openapi-inputs'] });
      expect(r!.verdict, r!.message).toBe('FAIL');
      const d = r!.details as Record<string, unknown>;
      expect(d.counterexample).toMatch(counterexample);
      expect(r!.message).toMatch(message);
      // The message shows the shrunk request once: where it already names the request it judged, no second copy follows.
      expect(r!.message.split(String(d.counterexample))).toHaveLength(2);
      expect(d.replay).toBe(`svc-harness run --only property:openapi-inputs --seed 7 --property-path ${String(d.path)}`);
      expect(r!.evidence.length).toBeGreaterThan(0);
      // The card opens on the exchanges that broke the promise: the shrunk request's own answer (with the wallet read around it, for a charge).
      const decisive = d.decisive as string[];
      expect(r!.evidence.slice(0, decisive.length)).toEqual(decisive);
      const base = new URL(t!.ctx.profile.base_url).pathname.replace(/\/$/, '');
      const shown = decisive
        .map((id) => t!.recorder.exchanges.find((x) => x.id === id)!)
        .map((x) => `${x.request.method} ${new URL(x.request.url).pathname.slice(base.length)}`);
      const [method, path] = String(d.counterexample).split(' ');
      const sent = `${method} ${path!.split('?')[0]}`;
      expect(shown).toEqual(defect === 'invalid-booking-charges' ? ['GET /wallet/balance', sent, 'GET /wallet/balance'] : [sent]);
    });
  }
});

describe('property openapi-inputs judges the webhook events of refused writes', () => {
  it('fails naming the event and the refused booking that emitted it (invalid-booking-emits-event)', async () => {
    const { ctx, receiver } = await withReceiver(['invalid-booking-emits-event']);
    const [r] = await runProperties(ctx, { seed: 7, only: ['openapi-inputs'] });
    expect(r!.verdict, r!.message).toBe('FAIL');
    const d = r!.details as Record<string, unknown>;
    expect(d.counterexample).toMatch(/^POST \/\w+\/bookings \{.*\} \(broken: body \w+ at \/[\w/]*\)$/);
    expect(r!.message).toMatch(
      /^event evt_[\w-]+ \(booking\.confirmed, booking bk_[\w-]+\) reached the agency's webhook endpoint, and no write the service accepted names it: a refused request emitted it — POST .* answered 422 VALIDATION_FAILED$/,
    );
    expect(r!.message.split(String(d.counterexample))).toHaveLength(2);
    expect(d.replay).toBe(`svc-harness run --only property:openapi-inputs --seed 7 --property-path ${String(d.path)}`);
    expect(r!.evidence.length).toBeGreaterThan(0);
    // The event was delivered as real ones are, signed, at the path the property set.
    const path = (d.events as { path: string }).path;
    expect(receiver.deliveries({ path }).length).toBeGreaterThan(0);
    expect(receiver.deliveries({ path })[0]!.headers['x-svc-webhook-signature']).toMatch(/^v1,/);
  });

  it('raises no event alarm where a refused booking charges but emits nothing (invalid-booking-charges fails on the wallet alone)', async () => {
    const { ctx } = await withReceiver(['invalid-booking-charges']);
    const [r] = await runProperties(ctx, { seed: 7, only: ['openapi-inputs'] });
    expect(r!.verdict).toBe('FAIL');
    expect(r!.message).toMatch(/refused writes changed the wallet/);
    expect(r!.message).not.toMatch(/webhook endpoint/);
  });
});
