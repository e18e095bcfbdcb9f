import { performance } from 'node:perf_hooks';
import { getField } from '../../src/api/fields.js';
import type { ApiResponse } from '../../src/api/types.js';
import type { ReceivedDelivery, Receiver } from '../../src/receiver/index.js';
import type { PropertyEnv } from './property-env.js';

/**
 * Real time an event a write caused is still looked for after the last write
 * of a run was answered, ms: the service's first attempt is immediate, so on
 * the mock it comes within milliseconds of the write; a real service may queue
 * its events a little.
 */
export function eventSettleMs(clock: 'mock' | 'real'): number {
  return clock === 'mock' ? 100 : 2_000;
}

/** One event the agency's endpoint received that no accepted write explains. */
export interface StrayEvent {
  /** The event id (the webhook id header, else the body's id). */
  id: string;
  /** Its type, when the body names one. */
  type: string | undefined;
  /** The booking it names, when the body names one where the profile says. */
  bookingId: string | undefined;
}

/**
 * The agency's webhook events while a property sends its requests: the
 * agency's endpoint is set to a fresh path of the harness's receiver, and
 * every event that reaches it must be explained by a write the service
 * accepted. A write answered 2xx explains one event that names the booking
 * its answer names; any other event (one naming a booking no 2xx answer gave,
 * a second one for the same booking, any event while every write was refused)
 * is stray: a refused request emitted it.
 */
export class EventWatch {
  /** Booking ids of the accepted writes whose event has not come yet (one entry per write). */
  private readonly credits: string[] = [];
  /** Event ids already judged (an event's attempts share its id). */
  private readonly judged = new Set<string>();
  /** The last delivery judged, in the receiver's arrival order. */
  private lastSeq = 0;
  /** When the last write was answered (performance.now()). */
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly env: PropertyEnv,
    private readonly receiver: Receiver,
    /** The receiver path the agency's endpoint points at. */
    readonly path: string,
    /** The endpoint the agency had before, to set back. */
    private readonly previous: string | undefined,
  ) {}

  /**
   * Sets the agency's endpoint to a fresh receiver path, or says why the
   * events cannot be watched: no receiver reachable by the target; in real
   * time, where the webhook checks may run beside it, an endpoint already set
   * (it is theirs, or the user's), or no write free (no window is waited
   * for); the service refusing the endpoint. Sends one read and one write.
   */
  static async open(env: PropertyEnv): Promise<EventWatch | { unjudged: string }> {
    const ctx = env.ctx;
    const receiver = ctx.receiver;
    if (!receiver) return { unjudged: 'no webhook receiver reachable by the target' };
    const path = `/wh/${env.unique('oi-events').replace(/[^A-Za-z0-9_-]/g, '-')}`;
    const real = ctx.clock.kind === 'real';
    await env.budget.ensure({ read: 1 });
    const old = env.track(await env.api.getWebhookEndpoint({ label: env.label("the agency's webhook endpoint, to restore") }), 'read');
    const url = getField(old.json, ctx.profile.fields.webhook_endpoint_url);
    const previous = typeof url === 'string' && url !== '' ? url : undefined;
    // In real time the webhook checks may run beside it: an endpoint one of them (or the user) set is left alone, so that none loses its events.
    if (real && previous !== undefined) return { unjudged: `the agency's webhook endpoint is set (${previous}); in real time it is left as it is` };
    // Nor is a window waited for a write.
    if (real && !env.budget.fits('write', 1)) return { unjudged: "no write free in the agency's bucket to point its webhook endpoint at the receiver" };
    await env.budget.ensure({ write: 1 });
    const set = env.track(
      await env.api.setWebhookEndpoint(receiver.url + path, { label: env.label("the agency's webhook endpoint on the receiver (events of the inputs)") }),
      'write',
    );
    if (set.status < 200 || set.status >= 300) return { unjudged: `setting the agency's webhook endpoint on the receiver answered ${env.describe(set)}` };
    return new EventWatch(env, receiver, path, previous);
  }

  /** Writes {@link restore} sends: one when the agency had an endpoint before (an unset one cannot be cleared through the API). */
  get restoreWrites(): number {
    return this.previous === undefined ? 0 : 1;
  }

  /** Notes a write's answer: one accepted (2xx) explains an event naming the booking it names. */
  wrote(res: ApiResponse): void {
    this.lastWriteAt = performance.now();
    if (res.status < 200 || res.status >= 300) return;
    const id = getField(res.json, this.env.ctx.profile.fields.booking_id);
    if (typeof id === 'string' && id !== '') this.credits.push(id);
  }

  /**
   * The events that reached the endpoint since the last call and that no
   * accepted write explains: it looks until `eventSettleMs` after the last
   * write's answer (stopping at the first stray one), or, with `settle`
   * false, at what has come so far.
   */
  async strays(settle = true): Promise<StrayEvent[]> {
    const left = settle ? eventSettleMs(this.env.ctx.clock.kind) - (performance.now() - this.lastWriteAt) : 0;
    const fresh = (d: ReceivedDelivery): boolean => d.path === this.path && d.seq > this.lastSeq && !this.judged.has(this.idOf(d));
    if (left > 0) await this.receiver.waitFor((d) => fresh(d) && this.creditOf(d) < 0, left);
    const out: StrayEvent[] = [];
    for (const d of this.receiver.deliveries(fresh)) {
      this.lastSeq = Math.max(this.lastSeq, d.seq);
      const id = this.idOf(d);
      if (this.judged.has(id)) continue;
      this.judged.add(id);
      const credit = this.creditOf(d);
      if (credit >= 0) {
        this.credits.splice(credit, 1);
        continue;
      }
      const body = parse(d.text);
      const f = this.env.ctx.profile.fields;
      const type = getField(body, f.event_type);
      const bookingId = getField(body, f.event_booking_id);
      out.push({ id, type: typeof type === 'string' ? type : undefined, bookingId: typeof bookingId === 'string' ? bookingId : undefined });
    }
    return out;
  }

  /** Sets the agency's endpoint back to what it was, when it had one. */
  async restore(): Promise<void> {
    if (this.previous === undefined) return;
    const res = await this.env.api.setWebhookEndpoint(this.previous, { label: this.env.label('restore the webhook endpoint') });
    this.env.budget.observe(res, 'write');
  }

  /** Index in the credits of the accepted write that explains delivery `d`, or -1. */
  private creditOf(d: ReceivedDelivery): number {
    return this.credits.findIndex((id) => d.text.includes(JSON.stringify(id)));
  }

  private idOf(d: ReceivedDelivery): string {
    const header = d.headers[this.env.ctx.profile.headers.webhook_id.toLowerCase()];
    const id = Array.isArray(header) ? header[0] : header;
    if (id) return id;
    const own = getField(parse(d.text), this.env.ctx.profile.fields.event_id);
    return typeof own === 'string' ? own : `delivery #${d.seq}`;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An event in a few words: `evt_1 (booking.confirmed, booking bk_2)`. */
export function describeEvent(e: StrayEvent): string {
  const what = [e.type, e.bookingId === undefined ? undefined : `booking ${e.bookingId}`].filter((x) => x !== undefined);
  return `${e.id}${what.length ? ` (${what.join(', ')})` : ''}`;
}
