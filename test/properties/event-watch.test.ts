import { afterEach, describe, expect, it } from 'vitest';
import { EventWatch, describeEvent } from '../../properties/_internal/event-watch.js';
import { PropertyEnv } from '../../properties/_internal/property-env.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
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

async function envWith(defects: string[], withReceiver = true): Promise<PropertyEnv> {
  t = await startContext({ defects });
  receiver = withReceiver ? await startReceiver() : undefined;
  const env = await PropertyEnv.create({ ...t.ctx, receiver });
  if ('skip' in env) throw new Error(env.skip);
  return env;
}

describe("the agency's webhook events while a property writes", () => {
  it('says why it cannot judge them without a receiver reachable by the target', async () => {
    const env = await envWith([], false);
    expect(await EventWatch.open(env)).toEqual({ unjudged: 'no webhook receiver reachable by the target' });
  });

  it('in real time leaves an endpoint already set as it is, and waits no window for the write it needs', async () => {
    t = await startContext({});
    receiver = await startReceiver();
    const env = await PropertyEnv.create({ ...t.ctx, receiver, clock: new RealClockDriver() });
    if ('skip' in env) throw new Error(env.skip);
    // Unset, and the write bucket full: no window is waited, nothing is set.
    env.budget.full('write');
    const started = Date.now();
    expect(await EventWatch.open(env)).toEqual({ unjudged: "no write free in the agency's bucket to point its webhook endpoint at the receiver" });
    expect(Date.now() - started).toBeLessThan(5_000);
    // Set by a webhook check (or the user): left alone, for none of them to lose its events.
    env.budget.empty('write');
    const theirs = `${receiver!.url}/wh/theirs`;
    await env.api.setWebhookEndpoint(theirs);
    expect(await EventWatch.open(env)).toEqual({ unjudged: `the agency's webhook endpoint is set (${theirs}); in real time it is left as it is` });
    expect((await env.api.getWebhookEndpoint()).json).toMatchObject({ url: theirs });
  });

  it('takes the event of each write answered 2xx (the booking it names); one naming a booking never answered is stray', async () => {
    const env = await envWith(['invalid-booking-emits-event']);
    const watch = await EventWatch.open(env);
    if ('unjudged' in watch) throw new Error(watch.unjudged);
    const offer = await env.offer('offer');
    const booked = await env.api.book(env.product, offer.quoteToken, env.unique('k'));
    expect(booked.status).toBe(201);
    watch.wrote(booked);
    expect(await watch.strays()).toEqual([]);
    expect(receiver!.deliveries({ path: watch.path })).toHaveLength(1);

    // A refused booking whose event the service sent anyway.
    const refused = await env.api.book(env.product, offer.quoteToken, env.unique('k'), { body: '{"quote_token":7,"travellers":[]}' });
    expect(refused.status).toBe(422);
    watch.wrote(refused);
    const [stray, ...more] = await watch.strays();
    expect(more).toEqual([]);
    expect(describeEvent(stray!)).toMatch(/^evt_[\w-]+ \(booking\.confirmed, booking bk_[\w-]+\)$/);
    expect(stray!.bookingId).not.toBe(booked.bookingId);

    // The booking's cancellation explains its own event; nothing already judged is judged again.
    const cancelled = await env.api.cancel(env.product, booked.bookingId!, env.unique('k'));
    expect(cancelled.status).toBe(201);
    watch.wrote(cancelled);
    expect(await watch.strays()).toEqual([]);
  });

  it('sets the endpoint the agency had back', async () => {
    const env = await envWith([]);
    const before = `${receiver!.url}/before`;
    await env.api.setWebhookEndpoint(before);
    const watch = await EventWatch.open(env);
    if ('unjudged' in watch) throw new Error(watch.unjudged);
    expect(watch.restoreWrites).toBe(1);
    expect((await env.api.getWebhookEndpoint()).json).toMatchObject({ url: receiver!.url + watch.path });
    await watch.restore();
    expect((await env.api.getWebhookEndpoint()).json).toMatchObject({ url: before });
  });
});
